// Loads ringql's own ingest addon (src/native, built by `npm ci`) and refuses to run without it: the
// byte-level ingest path has no silent slow substitute. `runTransform` (byte-batch.ts) is its one entry point.

import { createRequire } from 'node:module';
import { projectPath } from '../core/project-root.ts';

/** One transformed body (see src/native/README.md): rows, per-event numbers, interned strings. */
export interface NativeBatch {
  n: number;
  /** Every event's row JSON then its extra-columns JSON, back to back. */
  rows: Buffer;
  /** Per event (stride 6 + 2 × hot paths): ts, row start, split, end, project string id (-1 null), descriptor id, then per hot path kind and value. */
  meta: Float64Array;
  strs: Buffer;
  strEnds: Uint32Array;
  descs: Buffer;
  descEnds: Uint32Array;
  /** With noRows: the bytes the rows would have taken (their sum over the batch). */
  noRowsBytes?: number;
}

interface Addon {
  transform(
    body: Buffer, ndjson: boolean, maxDepth: number, maxStringBytes: number, nowUs: number,
    projectPath: readonly string[], hotPaths: readonly (readonly string[])[], idSeed: Buffer,
    /** Every row empty (row offsets 0, `rows` empty): for loads whose readers take no row bytes (the CLI's column-only path). */
    noRows?: boolean,
  ): NativeBatch | string;
  /** Copies src[ranges[2k], ranges[2k + 1]) for k < count end to end into dst from `at`; returns the bytes copied (RangeError when out of bounds). */
  gather(dst: Buffer, at: number, src: Buffer, ranges: Float64Array, count: number): number;
}

// From the checkout's root, so the compiled server in dist/ loads the same build as the TypeScript one.
const ADDON_PATH = projectPath('src/native/build/Release/ringql_ingest.node');

/** Loads the addon (`path` absolute, or relative to this file); throws, naming the fix, when it cannot. */
export function loadIngestAddon(path = ADDON_PATH): Addon {
  const require = createRequire(import.meta.url);
  try {
    const mod = require(path) as Addon;
    if (typeof mod.transform !== 'function' || typeof mod.gather !== 'function') throw new Error('it has no transform or gather function (a stale build?)');
    return mod;
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(
      `ringql: the native ingest addon (src/native) failed to load: ${why}. ringql will not start without it ` +
        '(there is no slow fallback). Run `npm run native` (or `npx node-gyp rebuild -C src/native`) (needs python3, make, ' +
        'a C compiler and the Node headers: npm_config_nodedir, or include/node beside the running node).',
    );
  }
}

/** Loaded when the store is: a missing or broken build stops the start here. */
export const INGEST_ADDON: Addon = loadIngestAddon();

/** Stride of NativeBatch.meta for `hotCount` hot paths. */
export function metaStride(hotCount: number): number {
  return 6 + 2 * hotCount;
}
