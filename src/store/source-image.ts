// A source's mutable state as one checkpoint part (the "head"): counters, the watermark, projects, hot
// dictionaries, the schema, the codecs its blocks use, and the open segment's rows. Sealed segments are
// parts of their own (segment-image.ts), written once each.

import { crc32 } from '../core/crc32.ts';
import { Compressor, Decompressor } from 'zstd-napi';
import { BLOCK_LEVEL, BlockCodec, type BlockTuning } from './block-codec.ts';
import { INEXACT, type HotValue } from './hot-paths.ts';
import type { HotDict } from './hot-dict.ts';
import { ChunkReader, arrayChunk, jsonChunk, readArray } from './image-io.ts';
import type { SchemaImage } from './schema-image.ts';
import type { OpenSegment } from './open-segment.ts';

/**
 * The layout of the chunks an ImagePart holds (this file's and segment-image.ts's): a part file records it,
 * and a start refuses parts of another layout instead of misreading them. Raise it with any layout change.
 */
export const IMAGE_FORMAT = 1;

/** One piece of a source's state, as the durable layer's Checkpointer takes it. Immutable parts (a sealed segment) are written once and kept while listed. */
export interface ImagePart {
  /** Unique within the source, stable while the part lives; file-name safe characters are kept, others replaced. */
  key: string;
  immutable: boolean;
  events: number;
  /**
   * The part's bytes as of the snapshot; called just before the part is written (one part at a time, so
   * a checkpoint never holds every part's bytes at once), only for parts the checkpoint writes.
   */
  chunks(): Buffer[];
  /** Whether the part's rows were evicted since the snapshot: the checkpoint then leaves it out (absent: never). */
  evicted?(): boolean;
  /** Bytes the part keeps alive outside the store while it waits to be written (its segment left the store; absent or 0: the store still holds them). */
  detachedBytes?(): number;
  /** Bytes of chunks() that are the store's own buffers, not copies (a segment's compressed blocks). */
  sharedBytes?(): number;
  /**
   * Called when the checkpoint queues the part to write, and release() once it is written, left out or the
   * checkpoint ends: meanwhile the store keeps the part's data as it is (a sealed segment is not merged
   * away), so the checkpoint never holds a copy the store has let go of and replaced.
   */
  hold?(): void;
  release?(): void;
}

export interface HeadState {
  hotKeys: readonly string[];
  wm: number;
  seq: number;
  evictedRows: number;
  droppedRows: number;
  /** Bumped whenever hot-dictionary compaction rewrites segments' id columns (their parts are new then). */
  hotEpoch: number;
  projectNames: readonly (string | null)[];
  /** Read value by value when the head is encoded (a dictionary's values never all at once as heap strings). */
  hotValues: readonly (HotDict | readonly HotValue[])[];
  schema: SchemaImage;
  /** The codecs of every block held, and the one new seals use (null before the first seal). */
  codecs: readonly BlockCodec[];
  current: BlockCodec | null;
  codecHasDict: boolean;
}

interface HeadMeta extends Omit<HeadState, 'hotValues' | 'codecs' | 'current' | 'wm'> {
  wm: number | null;
  /** `tuning`: the zstd parameters new blocks are compressed with (absent: the level alone; heads before it). */
  codecs: { key: string; blockBytes: number; dict: boolean; tuning?: BlockTuning }[];
  current: string | null;
  openRows: number;
  /** The dictionaries' string bytes are zstd frames (absent in heads written before: plain bytes). */
  dictZstd?: boolean;
}

/** Keys already computed: a codec's dictionary never changes, and a segment part names one codec per block. */
const codecKeys = new WeakMap<BlockCodec, string>();

/**
 * A stable name for a codec: its dictionary's checksum and size, and its block size. Computed once per
 * codec (the CRC of a 128 KiB dictionary for every block of every segment written was ~30 µs a block).
 */
export function codecKey(c: BlockCodec): string {
  let k = codecKeys.get(c);
  if (k === undefined) {
    k = c.dict === null ? `plain-${c.blockBytes}` : `z${crc32(c.dict).toString(16)}-${c.dict.length}-${c.blockBytes}`;
    codecKeys.set(c, k);
  }
  return k;
}

const NO_EXTRA = 0xffffffff;

/** The head part's chunks: meta JSON, each dictionary, then the open rows' columns and bytes. */
export function encodeHead(s: HeadState, open: OpenSegment): Buffer[] {
  // The dictionaries go in chunks of their own only (they were once in the meta JSON as well).
  const { hotValues, codecs, current, wm, ...plain } = s;
  const meta: HeadMeta = {
    ...plain,
    wm: Number.isFinite(wm) ? wm : null,
    codecs: codecs.map((c) => ({ key: codecKey(c), blockBytes: c.blockBytes, dict: c.dict !== null, ...(c.tuning === null ? {} : { tuning: c.tuning }) })),
    current: current === null ? null : codecKey(current),
    openRows: open.n,
    dictZstd: true,
  };
  const out = [jsonChunk(meta)];
  for (const c of codecs) if (c.dict !== null) out.push(c.dict);
  for (const d of hotValues) out.push(...dictionaryChunks(d));
  const n = open.n, hotCount = open.hot.length;
  const jsonLen = new Uint32Array(n), extraLen = new Uint32Array(n);
  // The rows' stored UTF-8 bytes go out as they are (they were written from strings, so decoding and
  // re-encoding each row gave the same bytes, at a cost that held the event loop for tens of ms).
  for (let r = 0; r < n; r++) {
    jsonLen[r] = open.jsonBytesOf(r);
    const xl = open.extraBytesOf(r);
    extraLen[r] = xl === 0 ? NO_EXTRA : xl;
  }
  out.push(arrayChunk(Float64Array.from(open.ts.v)), arrayChunk(Float64Array.from(open.seq)), arrayChunk(Uint32Array.from(open.pid)),
    arrayChunk(Uint32Array.from(open.shape)), arrayChunk(jsonLen), arrayChunk(extraLen), open.rowBytes());
  for (let h = 0; h < hotCount; h++) out.push(arrayChunk(Uint32Array.from(open.hot[h]!)));
  return out;
}

export interface DecodedHead extends Omit<HeadState, 'codecs' | 'current' | 'hotValues'> {
  hotValues: HotValue[][];
  codecs: Map<string, BlockCodec>;
  current: BlockCodec | null;
  /** Appends the open rows to `open` (rows as they were, sequence numbers included). */
  refill(open: OpenSegment): void;
}

export function decodeHead(chunks: readonly Buffer[]): DecodedHead {
  const rd = new ChunkReader(chunks, 'a source head part');
  const meta = rd.json<HeadMeta>();
  const codecs = new Map<string, BlockCodec>();
  for (const c of meta.codecs) codecs.set(c.key, new BlockCodec(c.dict ? Buffer.from(rd.next()) : null, c.blockBytes, BLOCK_LEVEL, c.tuning ?? null));
  const hotValues = meta.hotKeys.map(() => readDictionary(rd, meta.dictZstd === true));
  const ts = readArray(rd.next()), seq = readArray(rd.next()), pid = readArray(rd.next()), shape = readArray(rd.next());
  const jsonLen = readArray(rd.next()), extraLen = readArray(rd.next());
  const bytes = rd.next();
  const hot = meta.hotKeys.map(() => readArray(rd.next()));
  rd.done();
  const n = meta.openRows;
  for (const c of [ts, seq, pid, shape, jsonLen, extraLen, ...hot]) if (c.length !== n) throw new Error('checkpoint image: an open-rows column does not match the row count');
  return {
    hotKeys: meta.hotKeys, wm: meta.wm ?? -Infinity, seq: meta.seq, evictedRows: meta.evictedRows, droppedRows: meta.droppedRows,
    hotEpoch: meta.hotEpoch, projectNames: meta.projectNames, schema: meta.schema, codecHasDict: meta.codecHasDict,
    hotValues,
    codecs,
    current: meta.current === null ? null : codecs.get(meta.current) ?? null,
    refill(open: OpenSegment): void {
      let at = 0;
      const row: number[] = new Array<number>(hot.length);
      for (let r = 0; r < n; r++) {
        const json = bytes.toString('utf8', at, at += jsonLen[r]!);
        const xl = extraLen[r]!;
        const extra = xl === NO_EXTRA ? null : bytes.toString('utf8', at, at += xl);
        for (let h = 0; h < hot.length; h++) row[h] = hot[h]![r]!;
        open.append(ts[r]!, seq[r]!, pid[r]!, json, extra, row, shape[r]!);
      }
    },
  };
}

// A hot dictionary as three chunks (kinds, string bytes with their lengths, numbers): far cheaper to read
// back than JSON when a dictionary holds millions of URLs.
const K_NULL = 0, K_INEXACT = 1, K_STRING = 2, K_NUMBER = 3, K_TRUE = 4, K_FALSE = 5;

/** Bytes of one piece of a dictionary's string chunk while it is written (joined once at the end). */
const STR_PIECE = 1 << 20;

/**
 * Reads the dictionary value by value (a packed one decodes a block at a time), so a checkpoint never holds
 * its values as heap strings at once: a URL column of ~1M query strings took ~100 MiB of V8 heap that way.
 * The string bytes go out as zstd frames of 1 MiB pieces (one after another; they decompress as one):
 * written plain, they were ~80 MB of every head at that size, held while written and counted in the budget.
 */
function dictionaryChunks(values: HotDict | readonly HotValue[]): Buffer[] {
  const dict: HotDict = Array.isArray(values) ? { length: values.length, get: (id) => (values as readonly HotValue[])[id]! } : values as HotDict;
  const n = dict.length;
  const kinds = new Uint8Array(n);
  let lens = new Uint32Array(1024), nLens = 0;
  let nums = new Float64Array(16), nNums = 0;
  const pieces: Buffer[] = [];
  let piece = Buffer.allocUnsafe(STR_PIECE), at = 0;
  for (let i = 0; i < n; i++) {
    const v = dict.get(i);
    if (v === null) kinds[i] = K_NULL;
    else if (v === INEXACT) kinds[i] = K_INEXACT;
    else if (typeof v === 'string') {
      kinds[i] = K_STRING;
      const len = Buffer.byteLength(v, 'utf8');
      if (nLens === lens.length) lens = grown(lens, new Uint32Array(lens.length * 2));
      lens[nLens++] = len;
      if (at + len > piece.length) {
        pieces.push(dictZstd().c.compress(piece.subarray(0, at)));
        piece = Buffer.allocUnsafe(Math.max(STR_PIECE, len));
        at = 0;
      }
      at += piece.write(v, at, 'utf8');
    } else if (typeof v === 'number') {
      kinds[i] = K_NUMBER;
      if (nNums === nums.length) nums = grown(nums, new Float64Array(nums.length * 2));
      nums[nNums++] = v;
    } else kinds[i] = v ? K_TRUE : K_FALSE;
  }
  pieces.push(dictZstd().c.compress(piece.subarray(0, at)));
  return [arrayChunk(kinds), arrayChunk(lens.subarray(0, nLens)), Buffer.concat(pieces), arrayChunk(nums.subarray(0, nNums))];
}

let zstdPair: { c: Compressor; d: Decompressor } | null = null;

/** The zstd contexts of dictionary string bytes, made at the first checkpoint or restore (an idle server holds none). */
function dictZstd(): { c: Compressor; d: Decompressor } {
  if (zstdPair === null) {
    const c = new Compressor();
    c.setParameters({ compressionLevel: 1 });
    zstdPair = { c, d: new Decompressor() };
  }
  return zstdPair;
}

function grown<T extends Uint32Array | Float64Array>(a: T, into: T): T {
  into.set(a);
  return into;
}

function readDictionary(rd: ChunkReader, zstd: boolean): HotValue[] {
  const kinds = readArray(rd.next()), lens = readArray(rd.next()), stored = rd.next(), nums = readArray(rd.next());
  const text = zstd ? dictZstd().d.decompress(stored) : stored;
  const out = new Array<HotValue>(kinds.length);
  let s = 0, at = 0, n = 0;
  for (let i = 0; i < kinds.length; i++) {
    switch (kinds[i]) {
      case K_NULL: out[i] = null; break;
      case K_INEXACT: out[i] = INEXACT; break;
      case K_STRING: { const len = lens[s++]!; out[i] = text.toString('utf8', at, at += len); break; }
      case K_NUMBER: out[i] = nums[n++]!; break;
      case K_TRUE: out[i] = true; break;
      case K_FALSE: out[i] = false; break;
      default: throw new Error(`checkpoint image: unknown dictionary value kind ${kinds[i]}`);
    }
  }
  return out;
}
