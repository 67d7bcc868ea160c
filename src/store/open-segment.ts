// The open segment of a source: unsorted rows taking appends, their bytes uncompressed in a growable
// off-heap slab; replaced (never truncated) when sealed, so a scan in flight keeps what it started with.

import type { RowData } from './row-data.ts';
import { INGEST_ADDON } from './native-ingest.ts';
import { PlainTs } from './ts-column.ts';

/** Unsorted rows taking appends; replaced (never truncated) when sealed. */
export class OpenSegment implements RowData {
  /** Timestamps: ts.v[r] (ts.at(r) for readers of any segment). */
  readonly ts = new PlainTs<number[]>([]);
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
    this.push(src.ts.at(r), src.seqBase + src.seq[r]!, src.pid[r]!, at, at + jl, hot, src.shape[r]!);
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
    this.ts.v.push(ts);
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
  /** A copy of every row's bytes in row order (row r's JSON then its extra columns): rows lie end to end. */
  rowBytes(): Buffer { return this.off.length ? Buffer.from(this.slab.subarray(this.off[0]!, this.bytes)) : Buffer.alloc(0); }
  jsonBytesOf(r: number): number { return this.split[r]! - this.off[r]!; }
  extraBytesOf(r: number): number { return this.end(r) - this.split[r]!; }
  copyRow(r: number, out: Buffer, at: number): number {
    return this.slab.copy(out, at, this.off[r]!, this.end(r));
  }

  /** Copies rows[0, count) end to end into out from `at` with one native call (a seal's copies); returns the bytes copied. */
  gatherRows(rows: Uint32Array, count: number, out: Buffer, at: number): number {
    const ranges = new Float64Array(2 * count);
    for (let k = 0; k < count; k++) {
      const r = rows[k]!;
      ranges[2 * k] = this.off[r]!;
      ranges[2 * k + 1] = this.end(r);
    }
    return INGEST_ADDON.gather(out, at, this.slab, ranges, count);
  }

  /** Row indices in ascending ts order, cached until the next append (rows are only ever appended). */
  byTs(): Uint32Array {
    const n = this.ts.length;
    if (this.sorted === null || this.sorted.length !== n) {
      const ts = this.ts.v;
      const idx = new Uint32Array(n);
      for (let i = 0; i < n; i++) idx[i] = i;
      this.sorted = idx.sort((a, b) => ts[a]! - ts[b]! || a - b);
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
