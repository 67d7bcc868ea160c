// A body transformed by the ingest addon, read for the store: its interned strings decoded once per
// batch, hot values by kind, and the shapes its events' schema descriptors give.

import { INEXACT, type HotValue } from './hot-paths.ts';
import { INGEST_ADDON, metaStride, type NativeBatch } from './native-ingest.ts';
import { FieldLimitError } from './schema-node.ts';
import type { SchemaTree } from './schema-tree.ts';
import type { ShapeCache } from './schema-replay.ts';
import type { SourceDef } from './types.ts';

export interface TransformLimits {
  maxEventDepth: number;
  maxStringBytes: number;
}

/** Everything the addon's transform of one body needs: plain data, so it can be posted to the transform thread. */
export interface TransformRequest {
  body: Buffer;
  ndjson: boolean;
  maxEventDepth: number;
  maxStringBytes: number;
  fillUs: number;
  projectPath: readonly string[];
  hotPaths: readonly (readonly string[])[];
  idSeed: Buffer;
  /** Rows left empty (see the addon's noRows): only the CLI's column-only load sets it. */
  noRows?: boolean;
  /** Rows in a Buffer of their own ArrayBuffer, which postMessage can transfer (the transform thread sets it). */
  copyRows?: boolean;
  /** A buffer the rows are written into while they fit it (row-pool.ts); the batch's rows are then a view of it. */
  rowsInto?: Buffer;
}

/** The transform request of `body` for a source (its project path, hot paths and limits). */
export function transformRequest(body: Buffer, ndjson: boolean, def: SourceDef, hotPaths: readonly (readonly string[])[], lim: TransformLimits, fillUs: number, idSeed: Buffer): TransformRequest {
  return { body, ndjson, maxEventDepth: lim.maxEventDepth, maxStringBytes: lim.maxStringBytes, fillUs, projectPath: def.projectPath, hotPaths, idSeed };
}

/** The addon's transform of a body; a string says why the reference (JS) path must take the body. */
export function runTransform(r: TransformRequest): NativeBatch | string {
  if (!Number.isSafeInteger(r.fillUs)) return 'a fill-in time that is not an integer';
  const b = INGEST_ADDON.transform(r.body, r.ndjson, r.maxEventDepth, r.maxStringBytes, r.fillUs, r.projectPath, r.hotPaths, r.idSeed, r.noRows === true, r.copyRows === true, r.rowsInto);
  // Nothing comes back only when N-API refused to make the result (the thread is being stopped).
  if ((b as NativeBatch | string | undefined) === undefined) throw new Error('the ingest addon made no result: its thread is stopping');
  if (typeof b !== 'string' && b.rowsInto !== undefined) {
    b.rows = r.rowsInto!.subarray(0, b.rowsInto);
  }
  return b;
}

export function batchStrings(b: NativeBatch): string[] {
  const out = new Array<string>(b.strEnds.length);
  let start = 0;
  for (let i = 0; i < out.length; i++) {
    const end = b.strEnds[i]!;
    out[i] = b.strs.toString('utf8', start, end);
    start = end;
  }
  return out;
}

/** Kinds written by the addon: 0 null, 1 INEXACT, 2 string (value = string id), 3 number, 4 true, 5 false. */
export function hotValueOf(kind: number, value: number, strs: readonly string[]): HotValue {
  switch (kind) {
    case 0: return null;
    case 1: return INEXACT;
    case 2: return strs[value]!;
    case 3: return value;
    case 4: return true;
    default: return false;
  }
}

/**
 * The shape of every event, growing `schema` (inside the caller's begin/commit). null when an event
 * would pass the field bound: the schema is rolled back and the reference path must judge the batch.
 */
export function batchShapes(b: NativeBatch, hotCount: number, schema: SchemaTree, cache: ShapeCache): Uint32Array | null {
  const stride = metaStride(hotCount);
  const shapes = new Uint32Array(b.n);
  // Per descriptor of this batch: its shape and the tree version it holds at, so an event whose descriptor
  // an earlier one had (bodies hold a few shapes) takes it by index, as the cache would give it (same version).
  const nDesc = b.descEnds.length;
  const shapeOfDesc = new Uint32Array(nDesc), versionOfDesc = new Float64Array(nDesc).fill(-1);
  try {
    for (let i = 0; i < b.n; i++) {
      const d = b.meta[i * stride + 5]!;
      if (versionOfDesc[d] === schema.shapeVersion) { shapes[i] = shapeOfDesc[d]!; continue; }
      const start = d === 0 ? 0 : b.descEnds[d - 1]!, end = b.descEnds[d]!;
      const shape = cache.shapeOf(schema, b.descs, start, end, b.descs.toString('latin1', start, end));
      shapes[i] = shapeOfDesc[d] = shape;
      versionOfDesc[d] = schema.shapeVersion;
    }
  } catch (e) {
    schema.rollback();
    if (e instanceof FieldLimitError) return null;
    throw e;
  }
  return shapes;
}
