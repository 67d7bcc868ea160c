// The open segment of a source: unsorted rows taking appends, their bytes uncompressed in a growable
// off-heap slab or, for big ingest batches, in the batch's own rows buffer; replaced (never truncated)
// when sealed, so a scan in flight keeps what it started with.

import type { RowData } from './row-data.ts';
import { INGEST_ADDON } from './native-ingest.ts';
import type { RowPool } from './row-pool.ts';
import type { PlainTs } from './ts-column.ts';
import { tsOrder } from './ts-order.ts';
import { RowColumns, type IdsColumn, type NumColumn } from './row-columns.ts';

/** A run of a batch's rows this big or bigger is referenced in the batch's buffer, not copied (small runs would pin many small buffers). */
const TAKE_MIN_BYTES = 64 * 1024;

/** Unsorted rows taking appends; replaced (never truncated) when sealed. */
export class OpenSegment implements RowData {
  /** The per-row columns (JS arrays while small, typed once big: row-columns.ts). */
  private readonly cols: RowColumns;
  /** Timestamps: ts.v[r] (ts.at(r) for readers of any segment). */
  get ts(): PlainTs<NumColumn> { return this.cols.ts; }
  get seq(): NumColumn { return this.cols.seq; }
  readonly seqBase = 0;
  get pid(): IdsColumn { return this.cols.pid; }
  get hot(): readonly IdsColumn[] { return this.cols.hot; }
  get shape(): IdsColumn { return this.cols.shape; }
  /** Maps every row's id in hot column h in place (HotDictionaries.compact). */
  remapHot(h: number, map: (old: number) => number): void { this.cols.remapHot(h, map); }
  /**
   * Where rows' UTF-8 bytes lie: row r's JSON is chunkOf(r)[off[r], split[r]), its extra columns
   * [split[r], end[r]). Chunk 0 is the segment's own growable off-heap slab (appends and small runs are
   * copied into it; growing copies into a bigger slab); chunk k > 0 is an ingest batch's rows buffer,
   * referenced instead of copied when a run of its rows is big. Bytes already written never change, so
   * a scan holding a chunk reads the same rows.
   */
  private slab: Buffer;
  /** Bytes of the own slab in use. */
  private used = 0;
  private readonly chunks: Buffer[] = [Buffer.alloc(0)];
  private readonly chunk: number[] = [];
  private readonly off: number[] = [];
  private readonly split: number[] = [];
  private readonly end: number[] = [];
  /** The run of rows takeRows placed last: its chunk, its end and the first row pushed into it. */
  private runChunk = 0;
  private runEnd = 0;
  private runFirstRow = 0;
  /** Bytes of the referenced runs (chunks k > 0). */
  private takenBytes = 0;
  /**
   * While every row is empty (the CLI's column-only load keeps no row bytes), chunk/off/split/end hold
   * nothing: each row is [0, 0) of chunk 0. The first row with bytes fills them in (materialise).
   */
  private byteless = true;
  /** UTF-8 bytes of all rows. */
  bytes = 0;
  /** Rows with ts below the store's watermark (already counted as evicted). */
  hidden = 0;
  private sorted: Uint32Array | null = null;

  /**
   * `capacity`: own-slab bytes to start with (the previous open segment's use avoids growing, and its copies).
   * `pool`: the source's row buffers, which hold a reference for each of them this segment references.
   * `maxRows`: the rows it is sealed at (typed row columns are made that big at once: row-columns.ts).
   */
  constructor(hotCount: number, capacity = 64 * 1024, readonly pool: RowPool | null = null, readonly maxRows = 0) {
    this.cols = new RowColumns(hotCount, maxRows);
    this.slab = Buffer.allocUnsafeSlow(Math.max(1024, Math.ceil(capacity)));
  }

  get n(): number {
    return this.cols.length;
  }

  /** The batch buffers this segment references (its seal gives them back to the pool: RowPool.released). */
  referenced(): readonly Buffer[] {
    return this.chunks.slice(1);
  }

  /** Bytes of the rows copied into the segment's own slab (the rest are referenced batch buffers). */
  get ownBytes(): number {
    return this.used;
  }

  append(ts: number, seq: number, pid: number, json: string, extra: string | null, hot: readonly number[], shape = 0): void {
    const jl = Buffer.byteLength(json, 'utf8'), xl = extra === null ? 0 : Buffer.byteLength(extra, 'utf8');
    const at = this.reserve(jl + xl);
    // Pure ASCII (as many bytes as characters) is written as Latin-1: the same bytes, no encoding.
    this.slab.write(json, at, jl, jl === json.length ? 'latin1' : 'utf8');
    if (extra !== null) this.slab.write(extra, at + jl, xl, xl === extra.length ? 'latin1' : 'utf8');
    this.push(ts, seq, pid, 0, at, at + jl, at + jl + xl, hot, shape);
  }

  /**
   * Places src[start, end) (whole rows of the ingest addon's output, end to end) for pushRow of each of
   * those rows, in order; returns where the run begins (rows keep their offsets relative to it). A run of
   * TAKE_MIN_BYTES or more is referenced where it lies (src must then never change); a smaller one is copied.
   */
  takeRows(src: Buffer, start: number, end: number): number {
    this.runFirstRow = this.n;
    if (end - start >= TAKE_MIN_BYTES) {
      if (this.chunks[this.chunks.length - 1] !== src) {
        this.chunks.push(src);
        this.pool?.hold(src);
      }
      this.runChunk = this.chunks.length - 1;
      this.runEnd = end;
      this.takenBytes += end - start;
      this.bytes += end - start;
      return start;
    }
    const at = this.reserve(end - start);
    src.copy(this.slab, at, start, end);
    this.runChunk = 0;
    this.runEnd = at + end - start;
    return at;
  }

  /** Adds a row whose JSON is [at, split) and extra columns [split, next row) of the run takeRows placed last. */
  pushRow(ts: number, seq: number, pid: number, at: number, split: number, hot: readonly number[], shape: number): void {
    if (this.byteless && (at !== 0 || split !== 0 || this.runEnd !== 0 || this.runChunk !== 0)) this.materialise();
    // The run's rows lie end to end: this row ends the previous one.
    if (!this.byteless && this.n > this.runFirstRow) this.end[this.n - 1] = at;
    this.push(ts, seq, pid, this.runChunk, at, split, this.runEnd, hot, shape);
  }

  /** Appends row r of another segment, copying its bytes. */
  appendFrom(src: RowData, r: number, hot: readonly number[]): void {
    const jl = src.jsonBytesOf(r), xl = src.extraBytesOf(r);
    const at = this.reserve(jl + xl);
    src.copyRow(r, this.slab, at);
    this.push(src.ts.at(r), src.seqBase + src.seq[r]!, src.pid[r]!, 0, at, at + jl, at + jl + xl, hot, src.shape[r]!);
  }

  /** Makes room for n more bytes in the own slab; returns where they go. */
  private reserve(n: number): number {
    const at = this.used;
    if (at + n > this.slab.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(2 * this.slab.length, at + n));
      this.slab.copy(grown, 0, 0, at);
      this.slab = grown;
    }
    this.used = at + n;
    this.bytes += n;
    return at;
  }

  private push(ts: number, seq: number, pid: number, chunk: number, at: number, split: number, end: number, hot: readonly number[], shape: number): void {
    if (this.byteless && (chunk !== 0 || at !== 0 || split !== 0 || end !== 0)) this.materialise();
    this.cols.push(ts, seq, pid, shape, hot);
    if (!this.byteless) {
      this.chunk.push(chunk);
      this.off.push(at);
      this.split.push(split);
      this.end.push(end);
    }
  }

  /** Leaves the byteless state: every row so far is [0, 0) of chunk 0. */
  private materialise(): void {
    this.byteless = false;
    for (let r = 0; r < this.n; r++) {
      this.chunk.push(0);
      this.off.push(0);
      this.split.push(0);
      this.end.push(0);
    }
  }

  /** Resident bytes: the own slab's capacity, the referenced runs, the row columns (RowColumns) and the four offset columns (~8 bytes a row each). */
  get residentBytes(): number {
    return this.slab.length + this.takenBytes + this.cols.residentBytes + this.n * 8 * 4;
  }

  private buf(r: number): Buffer {
    if (this.byteless) return this.slab;
    const c = this.chunk[r]!;
    return c === 0 ? this.slab : this.chunks[c]!;
  }

  json(r: number): string { return this.byteless ? '' : this.buf(r).toString('utf8', this.off[r]!, this.split[r]!); }
  extra(r: number): string | null {
    if (this.byteless) return null;
    const s = this.split[r]!, e = this.end[r]!;
    return s === e ? null : this.buf(r).toString('utf8', s, e);
  }
  jsonBytes(r: number): Buffer { return this.byteless ? this.slab.subarray(0, 0) : this.buf(r).subarray(this.off[r]!, this.split[r]!); }
  /** A copy of every row's bytes in row order (row r's JSON then its extra columns): rows lie end to end. */
  rowBytes(): Buffer {
    const n = this.n, out = Buffer.allocUnsafe(this.bytes);
    const all = new Uint32Array(n);
    for (let r = 0; r < n; r++) all[r] = r;
    this.gatherRows(all, n, out, 0);
    return out;
  }
  jsonBytesOf(r: number): number { return this.byteless ? 0 : this.split[r]! - this.off[r]!; }
  extraBytesOf(r: number): number { return this.byteless ? 0 : this.end[r]! - this.split[r]!; }
  copyRow(r: number, out: Buffer, at: number): number {
    return this.byteless ? 0 : this.buf(r).copy(out, at, this.off[r]!, this.end[r]!);
  }

  /** Copies rows[0, count) end to end into out from `at` with one native call per run of rows in one chunk (a seal's copies); returns the bytes copied. */
  gatherRows(rows: Uint32Array, count: number, out: Buffer, at: number): number {
    if (this.byteless) return 0;
    const ranges = new Float64Array(2 * count);
    let done = 0;
    for (let k = 0; k < count;) {
      const c = this.chunk[rows[k]!]!;
      let m = 0;
      for (; k < count && this.chunk[rows[k]!] === c; k++, m++) {
        const r = rows[k]!;
        ranges[2 * m] = this.off[r]!;
        ranges[2 * m + 1] = this.end[r]!;
      }
      done += INGEST_ADDON.gather(out, at + done, c === 0 ? this.slab : this.chunks[c]!, ranges, m);
    }
    return done;
  }

  /** Row indices in ascending ts order, cached until the next append (rows are only ever appended). */
  byTs(): Uint32Array {
    const n = this.n;
    if (this.sorted === null || this.sorted.length !== n) {
      this.sorted = tsOrder(this.ts.v, n);
    }
    return this.sorted;
  }

  /** Recounts hidden rows for watermark w; returns how many more are hidden than before. */
  hide(w: number): number {
    let h = 0;
    const ts = this.ts.v;
    for (let i = 0; i < ts.length; i++) if (ts[i]! < w) h++;
    const delta = h - this.hidden;
    this.hidden = h;
    return delta;
  }
}
