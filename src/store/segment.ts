// Row storage of one source: the open segment (appends in any order, rows uncompressed in a growable
// off-heap slab) and immutable sealed segments sorted by (project id, ts) with a per-project run
// index, a ts-order permutation, narrow typed columns and row bytes in zstd blocks (row-blocks.ts; or
// one slab in v1 mode). Sealing, merging and purging build new arrays, so a scan in flight keeps
// reading what it started with; merges reference their inputs' blocks instead of recompressing.

import type { RowText } from './types.ts';
import { MAX_SLAB_BYTES } from './slab-limit.ts';
import { narrowed, type UintArray } from './narrow.ts';
import { SlabRowsBuilder, type RowBytes, type RowBytesBuilder } from './row-bytes.ts';
import { BlockRowsBuilder } from './row-blocks.ts';
import type { BlockCodec } from './block-codec.ts';

export { MAX_SLAB_BYTES };

/** Parallel row columns, shared by open and sealed segments. */
export interface RowData extends RowText {
  readonly ts: ArrayLike<number>;
  /** Ingest sequence number of row r is seqBase + seq[r]. */
  readonly seq: ArrayLike<number>;
  readonly seqBase: number;
  readonly pid: ArrayLike<number>;
  /** Dictionary ids per hot key (in SourceStore.hotKeys order). */
  readonly hot: readonly ArrayLike<number>[];
  /** Schema shape of each row: which forgettable field paths it uses (SchemaTree.endEvent; 0 = none). */
  readonly shape: ArrayLike<number>;
  /** UTF-8 bytes of row r's JSON and of its extra columns (0 when it has none). */
  jsonBytesOf(r: number): number;
  extraBytesOf(r: number): number;
  /** Writes row r's JSON then its extra columns at `at` in `out`; returns the bytes written. */
  copyRow(r: number, out: Buffer, at: number): number;
}


/** Rows [start, end) of one project inside a sealed segment, ascending by ts. */
export interface Run {
  start: number;
  end: number;
}

/** Unsorted rows taking appends; replaced (never truncated) when sealed. */
export class OpenSegment implements RowData {
  readonly ts: number[] = [];
  readonly seq: number[] = [];
  readonly seqBase = 0;
  readonly pid: number[] = [];
  /**
   * Rows' UTF-8 bytes, appended: row r's JSON is slab[off[r], split[r]), its extra columns
   * slab[split[r], off[r + 1]) (the last row ends at `bytes`). Growing copies into a bigger slab;
   * bytes already written never change, so a scan holding the old slab reads the same rows.
   */
  private slab: Buffer;
  private readonly off: number[] = [];
  private readonly split: number[] = [];
  readonly hot: number[][];
  readonly shape: number[] = [];
  /** UTF-8 bytes of all rows. */
  bytes = 0;
  /** Rows with ts below the store's watermark (already counted as evicted). */
  hidden = 0;
  private sorted: Uint32Array | null = null;

  /** `capacity`: bytes to start with (the previous open segment's size avoids growing, and its copies). */
  constructor(hotCount: number, capacity = 64 * 1024) {
    this.hot = Array.from({ length: hotCount }, () => []);
    this.slab = Buffer.allocUnsafeSlow(Math.max(1024, Math.ceil(capacity)));
  }

  get n(): number {
    return this.ts.length;
  }

  append(ts: number, seq: number, pid: number, json: string, extra: string | null, hot: readonly number[], shape = 0): void {
    const jl = Buffer.byteLength(json, 'utf8'), xl = extra === null ? 0 : Buffer.byteLength(extra, 'utf8');
    const at = this.reserve(jl + xl);
    // Pure ASCII (as many bytes as characters) is written as Latin-1: the same bytes, no encoding.
    this.slab.write(json, at, jl, jl === json.length ? 'latin1' : 'utf8');
    if (extra !== null) this.slab.write(extra, at + jl, xl, xl === extra.length ? 'latin1' : 'utf8');
    this.push(ts, seq, pid, at, at + jl, hot, shape);
  }

  /**
   * Copies src[start, end) (whole rows of the ingest addon's output) in one piece; returns where it
   * went, for pushRow of each of those rows.
   */
  copyRows(src: Buffer, start: number, end: number): number {
    const at = this.reserve(end - start);
    src.copy(this.slab, at, start, end);
    return at;
  }

  /** Adds a row whose JSON is slab[at, split) and extra columns slab[split, next row) (after copyRows). */
  pushRow(ts: number, seq: number, pid: number, at: number, split: number, hot: readonly number[], shape: number): void {
    this.push(ts, seq, pid, at, split, hot, shape);
  }

  /** Appends row r of another segment, copying its bytes. */
  appendFrom(src: RowData, r: number, hot: readonly number[]): void {
    const jl = src.jsonBytesOf(r), xl = src.extraBytesOf(r);
    const at = this.reserve(jl + xl);
    src.copyRow(r, this.slab, at);
    this.push(src.ts[r]!, src.seqBase + src.seq[r]!, src.pid[r]!, at, at + jl, hot, src.shape[r]!);
  }

  /** Makes room for n more bytes; returns where they go. */
  private reserve(n: number): number {
    const at = this.bytes;
    if (at + n > this.slab.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(2 * this.slab.length, at + n));
      this.slab.copy(grown, 0, 0, at);
      this.slab = grown;
    }
    this.bytes = at + n;
    return at;
  }

  private push(ts: number, seq: number, pid: number, at: number, split: number, hot: readonly number[], shape: number): void {
    this.shape.push(shape);
    this.ts.push(ts);
    this.seq.push(seq);
    this.pid.push(pid);
    this.off.push(at);
    this.split.push(split);
    for (let h = 0; h < this.hot.length; h++) this.hot[h]!.push(hot[h]!);
  }

  /** Resident bytes: the slab's capacity and the row columns (JS arrays of numbers, ~8 bytes each). */
  get residentBytes(): number {
    return this.slab.length + this.ts.length * 8 * (6 + this.hot.length);
  }

  private end(r: number): number {
    return r + 1 < this.off.length ? this.off[r + 1]! : this.bytes;
  }

  json(r: number): string { return this.slab.toString('utf8', this.off[r]!, this.split[r]!); }
  extra(r: number): string | null {
    const s = this.split[r]!, e = this.end(r);
    return s === e ? null : this.slab.toString('utf8', s, e);
  }
  jsonBytes(r: number): Buffer { return this.slab.subarray(this.off[r]!, this.split[r]!); }
  jsonBytesOf(r: number): number { return this.split[r]! - this.off[r]!; }
  extraBytesOf(r: number): number { return this.end(r) - this.split[r]!; }
  copyRow(r: number, out: Buffer, at: number): number {
    return this.slab.copy(out, at, this.off[r]!, this.end(r));
  }

  /** Row indices in ascending ts order, cached until the next append (rows are only ever appended). */
  byTs(): Uint32Array {
    const n = this.ts.length;
    if (this.sorted === null || this.sorted.length !== n) {
      const ts = this.ts;
      const idx = new Uint32Array(n);
      for (let i = 0; i < n; i++) idx[i] = i;
      this.sorted = idx.sort((a, b) => ts[a]! - ts[b]! || a - b);
    }
    return this.sorted;
  }

  /** Recounts hidden rows for watermark w; returns how many more are hidden than before. */
  hide(w: number): number {
    let h = 0;
    for (let i = 0; i < this.ts.length; i++) if (this.ts[i]! < w) h++;
    const delta = h - this.hidden;
    this.hidden = h;
    return delta;
  }
}

export class Segment implements RowData {
  readonly n: number;
  private readonly colBytes: number;
  readonly minTs: number;
  readonly maxTs: number;
  readonly minSeq: number;
  readonly maxSeq: number;
  /** Rows with ts below the store's watermark: byTs[0, hidden). Counted as evicted already. */
  hidden = 0;

  constructor(
    readonly ts: Float64Array,
    /** Ingest sequence numbers minus seqBase. */
    readonly seq: UintArray,
    readonly seqBase: number,
    readonly pid: UintArray,
    /** Row bytes: one slab (v1) or compressed blocks (v2). */
    readonly rows: RowBytes,
    /** Dictionary ids per hot key; hot-dictionary compaction may replace a column (never its length). */
    readonly hot: UintArray[],
    /** Row indices in ascending ts order. */
    readonly byTs: Uint32Array,
    readonly runs: Map<number, Run>,
    readonly shape: UintArray,
  ) {
    const n = (this.n = ts.length);
    this.colBytes = rows.compressed ? this.columnBytes() : 0;
    this.minTs = ts[byTs[0]!]!;
    this.maxTs = ts[byTs[n - 1]!]!;
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < n; i++) {
      const s = seq[i]!;
      if (s < lo) lo = s;
      if (s > hi) hi = s;
    }
    this.minSeq = seqBase + lo;
    this.maxSeq = seqBase + hi;
  }

  /** Resident bytes: the slab's size (v1), or the blocks as held now plus every row column (v2). */
  get bytes(): number {
    return this.rows.bytes + this.colBytes;
  }

  /** Bytes of the row columns (timestamps, sequence, project, hot ids, shapes, ts order, runs). */
  private columnBytes(): number {
    let b = this.ts.byteLength + this.seq.byteLength + this.pid.byteLength + this.byTs.byteLength + this.shape.byteLength;
    for (const h of this.hot) b += h.byteLength;
    return b + this.runs.size * 64 + 256;
  }

  json(r: number): string { return this.rows.json(r); }
  extra(r: number): string | null { return this.rows.extra(r); }
  jsonBytes(r: number): Buffer { return this.rows.jsonBytes(r); }
  jsonBytesOf(r: number): number { return this.rows.jsonBytesOf(r); }
  extraBytesOf(r: number): number { return this.rows.extraBytesOf(r); }
  copyRow(r: number, out: Buffer, at: number): number { return this.rows.copyRow(r, out, at); }

  /** First position p in byTs with ts >= w (the count of rows below w). */
  countBelow(w: number): number {
    if (w <= this.minTs) return 0;
    if (w > this.maxTs) return this.n;
    return lowerBoundPerm(this.ts, this.byTs, 0, this.n, w);
  }
}

/** First index in [lo, hi) whose ts (through perm) is >= x. */
export function lowerBoundPerm(ts: ArrayLike<number>, perm: ArrayLike<number>, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[perm[mid]!]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in [lo, hi) whose ts (through perm) is > x. */
export function upperBoundPerm(ts: ArrayLike<number>, perm: ArrayLike<number>, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[perm[mid]!]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function lowerBound(ts: ArrayLike<number>, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function upperBound(ts: ArrayLike<number>, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Copies rows into a new sealed segment. `order` lists rows in (pid, ts) order; row r < na is a's row
 * r, otherwise b's row r - na. `byTsOf` returns the ts permutation of the new segment. `codec` null
 * keeps the rows in one uncompressed slab (v1), else in compressed blocks (v2).
 */
function build(a: RowData, b: RowData | null, na: number, order: ArrayLike<number>, n: number, codec: BlockCodec | null, byTsOf: (ts: Float64Array, seq: UintArray) => Uint32Array): Segment | null {
  if (n === 0) return null;
  let total = 0, seqLo = Infinity, seqHi = 0;
  const aRows = a instanceof Segment ? a.rows : null, bRows = b instanceof Segment ? b.rows : null;
  const blocks = codec === null ? null : new BlockRowsBuilder(n, codec);
  for (let i = 0; i < n; i++) {
    const r = order[i]!;
    const src = r < na ? a : b!, rr = r < na ? r : r - na;
    if (codec === null) total += src.jsonBytesOf(rr) + src.extraBytesOf(rr);
    else blocks!.count(r < na ? aRows : bRows, rr, src);
    const s = src.seqBase + src.seq[rr]!;
    if (s < seqLo) seqLo = s;
    if (s > seqHi) seqHi = s;
  }
  if (seqHi - seqLo > 0xffffffff) throw new Error('internal: a segment spans more than 2^32 sequence numbers');
  const rows: RowBytesBuilder = blocks ?? new SlabRowsBuilder(n, total);
  // Columns scans read per row stay Uint32Array: one array kind keeps those loops monomorphic (mixed
  // Uint8/16/32 columns made usage.api-counts ~2x slower); only shapes, read at schema prunes, narrow.
  const ts = new Float64Array(n), seq = new Uint32Array(n), pid = new Uint32Array(n);
  const hot = a.hot.map(() => new Uint32Array(n));
  const shape = new Uint32Array(n);
  const runs = new Map<number, Run>();
  let run: Run | null = null;
  for (let i = 0; i < n; i++) {
    let r = order[i]!;
    let src = a, srcRows = aRows;
    if (r >= na) { src = b!; srcRows = bRows; r -= na; }
    const p = src.pid[r]!;
    ts[i] = src.ts[r]!;
    seq[i] = src.seqBase + src.seq[r]! - seqLo;
    pid[i] = p;
    rows.add(src, srcRows, r);
    for (let h = 0; h < hot.length; h++) hot[h]![i] = src.hot[h]![r]!;
    shape[i] = src.shape[r]!;
    if (run === null || pid[i - 1] !== p) {
      if (run !== null) run.end = i;
      run = { start: i, end: n };
      runs.set(p, run);
    }
  }
  return new Segment(ts, seq, seqLo, pid, rows.finish(), hot, byTsOf(ts, seq), runs, narrowed(shape));
}

function sortByTs(ts: Float64Array, seq: UintArray): Uint32Array {
  const idx = new Uint32Array(ts.length);
  for (let i = 0; i < idx.length; i++) idx[i] = i;
  return idx.sort((a, b) => ts[a]! - ts[b]! || seq[a]! - seq[b]!);
}

/** Seals the open segment's rows with ts >= w into a sorted segment (null when none remain). */
export function sealOpen(open: OpenSegment, w: number, codec: BlockCodec | null = null): Segment | null {
  const { ts, pid, seq } = open;
  const keep: number[] = [];
  for (let i = 0; i < ts.length; i++) if (ts[i]! >= w) keep.push(i);
  const order = Uint32Array.from(keep).sort((a, b) => pid[a]! - pid[b]! || ts[a]! - ts[b]! || seq[a]! - seq[b]!);
  return build(open, null, Infinity, order, order.length, codec, sortByTs);
}

/** Open rows with ts >= w, as a fresh open segment (the old arrays stay intact for scans in flight). */
export function purgeOpen(open: OpenSegment, w: number): OpenSegment {
  const out = new OpenSegment(open.hot.length, open.bytes);
  const hot: number[] = new Array<number>(open.hot.length);
  for (let i = 0; i < open.n; i++) {
    if (open.ts[i]! < w) continue;
    for (let h = 0; h < hot.length; h++) hot[h] = open.hot[h]![i]!;
    out.appendFrom(open, i, hot);
  }
  return out;
}

/**
 * Merges two sealed segments (b may be null: then a is only purged) into one, keeping rows with
 * ts >= w, in (pid, ts) order; the ts permutation is merged too, so the whole thing is linear.
 */
export function mergeSegments(a: Segment, b: Segment | null, w: number, codec: BlockCodec | null = null): Segment | null {
  const na = a.n, nb = b === null ? 0 : b.n;
  // Rows [0, na) are a's, [na, na + nb) are b's.
  const newIndex = new Int32Array(na + nb).fill(-1);
  const order = new Uint32Array(na + nb);
  let n = 0, i = 0, j = 0;
  while (i < na || j < nb) {
    let takeA: boolean;
    if (i >= na) takeA = false;
    else if (j >= nb) takeA = true;
    else {
      const pa = a.pid[i]!, pb = b!.pid[j]!;
      takeA = pa < pb || (pa === pb && a.ts[i]! <= b!.ts[j]!);
    }
    const r = takeA ? i++ : na + j++;
    if ((r < na ? a.ts[r]! : b!.ts[r - na]!) < w) continue;
    newIndex[r] = n;
    order[n++] = r;
  }
  return build(a, b, na, order, n, codec, () => {
    const byTs = new Uint32Array(n);
    let k = 0, x = 0, y = 0;
    while (x < na || y < nb) {
      let r: number;
      if (x >= na) r = na + b!.byTs[y++]!;
      else if (y >= nb) r = a.byTs[x++]!;
      else r = a.ts[a.byTs[x]!]! <= b!.ts[b!.byTs[y]!]! ? a.byTs[x++]! : na + b!.byTs[y++]!;
      const ni = newIndex[r]!;
      if (ni >= 0) byTs[k++] = ni;
    }
    return byTs;
  });
}

/** The segment without the rows of projects `pids` (null when none remain); others keep their order. */
export function withoutProjects(seg: Segment, pids: ReadonlySet<number>, codec: BlockCodec | null = null): Segment | null {
  const order: number[] = [];
  for (let i = 0; i < seg.n; i++) if (!pids.has(seg.pid[i]!)) order.push(i);
  if (order.length === seg.n) return seg;
  return build(seg, null, Infinity, Uint32Array.from(order), order.length, codec, sortByTs);
}

/** The open rows not of projects `pids`, as a fresh open segment. */
export function openWithoutProjects(open: OpenSegment, pids: ReadonlySet<number>): OpenSegment {
  const out = new OpenSegment(open.hot.length, open.bytes);
  const hot: number[] = new Array<number>(open.hot.length);
  for (let i = 0; i < open.n; i++) {
    if (pids.has(open.pid[i]!)) continue;
    for (let h = 0; h < hot.length; h++) hot[h] = open.hot[h]![i]!;
    out.appendFrom(open, i, hot);
  }
  return out;
}
