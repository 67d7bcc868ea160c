// Grows a SchemaTree from the schema descriptor the ingest addon writes per event (its member keys and
// value types in the walk order of record-json.ts), with a cache by descriptor while the tree is unchanged.

import type { SchemaNode } from './schema-node.ts';
import type { SchemaTree } from './schema-tree.ts';

/** A value of each descriptor type code that json-field-type.ts's typeOf types the same way (index = code). */
const SYNTH: readonly unknown[] = [null, '', 0, 0.5, false, {}, [''], [0], [0.5], [false], [{}], [[0]]];
const OBJECT_FOLLOWS = 0x40, ARRAY_FOLLOWS = 0x80;
const MAX_CACHED = 4096;

/** Shapes of descriptors replayed at one tree version. */
export class ShapeCache {
  private readonly map = new Map<string, { version: number; shape: number }>();

  /** The shape of the event described by desc[start, end): replayed unless cached at this version. Throws FieldLimitError. */
  shapeOf(schema: SchemaTree, desc: Buffer, start: number, end: number, key: string): number {
    const hit = this.map.get(key);
    if (hit !== undefined && hit.version === schema.shapeVersion) return hit.shape;
    const shape = replayEvent(schema, desc, start, end);
    if (this.map.size >= MAX_CACHED) this.map.clear();
    this.map.set(key, { version: schema.shapeVersion, shape });
    return shape;
  }
}

/** normalizeEvent's schema calls for one event; returns its shape. */
export function replayEvent(schema: SchemaTree, d: Buffer, start: number, end: number): number {
  schema.beginEvent();
  let p = start;
  if (d[p++] === 1) {
    const len = d.readUInt32LE(p);
    p += 4;
    members(schema, schema.metadataNode, d, p, p + len);
    p += len;
  }
  while (p < end) p = member(schema, schema.root, d, p, true);
  return schema.endEvent();
}

function member(schema: SchemaTree, parent: SchemaNode, d: Buffer, p: number, top: boolean): number {
  const code = d[p]!;
  const klen = d.readUInt32LE(p + 1);
  const key = d.toString('utf8', p + 5, p + 5 + klen);
  p += 5 + klen;
  const node = schema.child(parent, key, SYNTH[code & 0x3f]);
  if (top) schema.noteTopLevel(key, node);
  if ((code & (OBJECT_FOLLOWS | ARRAY_FOLLOWS)) === 0) return p;
  const len = d.readUInt32LE(p);
  p += 4;
  if (node !== null) {
    if (code & OBJECT_FOLLOWS) members(schema, node, d, p, p + len);
    else elements(schema, node, d, p, p + len);
  }
  return p + len;
}

function members(schema: SchemaTree, node: SchemaNode, d: Buffer, p: number, end: number): void {
  while (p < end) p = member(schema, node, d, p, false);
}

/** An array's object and array elements (scalars add no paths), all under the array's own node. */
function elements(schema: SchemaTree, node: SchemaNode, d: Buffer, p: number, end: number): void {
  while (p < end) {
    const tag = d[p]!;
    const len = d.readUInt32LE(p + 1);
    p += 5;
    if (tag === 0x6f) members(schema, node, d, p, p + len);
    else elements(schema, node, d, p, p + len);
    p += len;
  }
}
