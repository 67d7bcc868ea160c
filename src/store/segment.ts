// A sealed segment of one source: immutable rows sorted by (project id, ts) with a per-project run index,
// a ts-order permutation, narrow typed columns and row bytes in zstd blocks (row-blocks.ts; or one slab in
// v1 mode). Built by segment-build.ts from the open segment (open-segment.ts) or other segments.

import type { RowData } from './row-data.ts';
import { lowerBoundPerm } from './ts-bounds.ts';
import type { UintArray } from './narrow.ts';
import type { RowBytes } from './row-bytes.ts';
import type { TsColumn } from './ts-column.ts';

/** Rows [start, end) of one project inside a sealed segment, ascending by ts. */
export interface Run {
  start: number;
  end: number;
}
export class Segment implements RowData {
  readonly n: number;
  readonly minTs: number;
  readonly maxTs: number;
  readonly minSeq: number;
  readonly maxSeq: number;
  /** Rows with ts below the store's watermark: byTs[0, hidden). Counted as evicted already. */
  hidden = 0;

  constructor(
    /** Timestamps, frame-of-reference encoded (ts-column.ts): read ts.at(r). */
    readonly ts: TsColumn,
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
    this.minTs = ts.at(byTs[0]!);
    this.maxTs = ts.at(byTs[n - 1]!);
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
    return this.rows.bytes + (this.rows.compressed ? this.columnBytes() : 0);
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
