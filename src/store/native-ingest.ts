// The ingest addon's store functions, typed (core/native-addon.ts loads it and refuses to run without it:
// the byte-level ingest path has no silent slow substitute). `runTransform` (byte-batch.ts) is its one entry point.

import { BYTE_FUNCTION_NAMES, loadNativeAddon, type ByteFunctions } from '../core/native-addon.ts';

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
  /** From the addon only: the rows' length in the rowsInto buffer they fitted (runTransform makes `rows` its view). */
  rowsInto?: number;
  /** From the transform thread: `rows` lie in a buffer of its row pool, to be given back (TransformThread.rowsHome). */
  pooled?: boolean;
}

interface Addon extends ByteFunctions {
  transform(
    body: Buffer, ndjson: boolean, maxDepth: number, maxStringBytes: number, nowUs: number,
    projectPath: readonly string[], hotPaths: readonly (readonly string[])[], idSeed: Buffer,
    /** Every row empty (row offsets 0, `rows` empty): for loads whose readers take no row bytes (the CLI's column-only path). */
    noRows?: boolean,
    /** Rows copied into a Buffer of their own (transferable), the thread's row buffer kept for its next body: for the transform thread. */
    copyRows?: boolean,
    /** Rows written into this buffer while they fit it (then `rowsInto` = their length, no `rows`). */
    rowsInto?: Buffer,
  ): NativeBatch | string;
  /** out = indices of ts by (ts, index) (out.length === ts.length); false, out unspecified, when a value is not an integer or the span passes 2^52. */
  tsOrder(ts: Float64Array, out: Uint32Array): boolean;
  /** glibc's mallinfo2 summed over its arenas: heap bytes got from the system, mmapped bytes, in use, free. */
  mallocInfo(): MallocInfo;
  /** malloc_trim(0): gives free heap pages of every arena back to the system; true when some were. */
  mallocTrim(): boolean;
  /** mallopt of each argument above 0: M_MMAP_THRESHOLD, M_TRIM_THRESHOLD, M_ARENA_MAX; returns how many were refused. */
  mallocTune(mmapThreshold: number, trimThreshold: number, arenaMax: number): number;
  /** madvise(MADV_HUGEPAGE) over the whole 2 MiB pages inside `bytes` (call before first writing them); returns the bytes advised, 0 when none. */
  adviseHugePages(bytes: Uint8Array): number;
}

/** glibc's mallinfo2 (bytes): arena = heap got from the system, hblkhd = mmapped chunks, uordblks in use, fordblks free. */
export interface MallocInfo { arena: number; ordblks: number; hblks: number; hblkhd: number; uordblks: number; fordblks: number; keepcost: number }

/** Loads the addon (`path` absolute, or relative to core/native-addon.ts); throws, naming the fix, when it cannot. */
export function loadIngestAddon(path?: string): Addon {
  return loadNativeAddon<Addon>([...BYTE_FUNCTION_NAMES, 'transform', 'tsOrder', 'adviseHugePages'], path);
}

/**
 * glibc settings for a process that holds a store (bench/MEMORY.md, "slack"): a fixed mmap threshold, so
 * buffers of 1 MiB and more (open-segment slabs, seal and merge outputs, ingest bodies) are mapped on
 * their own and unmapped when freed. Not lower: at 128 KiB every response body and scan buffer of a
 * `logs.all` (~230 KB) was mapped and faulted in afresh, and a cold `logs.all` took 3x as long. Left dynamic, glibc raises the threshold to the size of the first big
 * buffer freed (up to 32 MiB): later big buffers then come from the heap and their frees leave holes it
 * keeps (~100 MiB of 1M small events). Fixing it also fixes the trim threshold (the heap's free top given
 * back past 128 KiB), and two arenas at most, as `npm start`'s MALLOC_ARENA_MAX=2 sets for the server.
 */
export const MALLOC_SETTINGS = { mmapThreshold: 1024 * 1024, trimThreshold: 128 * 1024, arenaMax: 2 } as const;

/** Loaded when the store is: a missing or broken build stops the start here. */
export const INGEST_ADDON: Addon = loadIngestAddon();
INGEST_ADDON.mallocTune(MALLOC_SETTINGS.mmapThreshold, MALLOC_SETTINGS.trimThreshold, MALLOC_SETTINGS.arenaMax);

/** Stride of NativeBatch.meta for `hotCount` hot paths. */
export function metaStride(hotCount: number): number {
  return 6 + 2 * hotCount;
}
