// Where a sealed segment keeps its rows' bytes, by storage row index: the RowBytes interface, the
// v1 layout (one uncompressed slab; StoreConfig.compress false, kept for the differential test)
// and its builder. The v2 layout (zstd blocks) is in row-blocks.ts.

import { MAX_SLAB_BYTES } from './slab-limit.ts';

/** Row bytes of a sealed segment: row r's JSON followed by its extra columns (if any). */
export interface RowBytes {
  /** Resident bytes of the storage (slab, or compressed blocks and their tables). */
  readonly bytes: number;
  /** Uncompressed bytes of every row. */
  readonly rawBytes: number;
  readonly compressed: boolean;
  json(r: number): string;
  extra(r: number): string | null;
  jsonBytes(r: number): Buffer;
  jsonBytesOf(r: number): number;
  extraBytesOf(r: number): number;
  copyRow(r: number, out: Buffer, at: number): number;
}

/** What a builder reads rows from: a segment's row sizes and bytes. */
export interface RowSource {
  jsonBytesOf(r: number): number;
  extraBytesOf(r: number): number;
  copyRow(r: number, out: Buffer, at: number): number;
  /** When present: copies rows[0, count) end to end into out from `at` in one call (as copyRow of each would). */
  gatherRows?(rows: Uint32Array, count: number, out: Buffer, at: number): number;
}

/** Builds a segment's RowBytes row by row, in storage order. */
export interface RowBytesBuilder {
  /** Optional first pass over every row add() will get (lets a builder see which blocks stay full). */
  count?(srcRows: RowBytes | null, r: number, src?: RowSource): void;
  /** Appends row r of src (whose stored bytes are `srcRows` when it is a sealed segment). */
  add(src: RowSource, srcRows: RowBytes | null, r: number): void;
  finish(): RowBytes;
}

/** v1: every row in one slab; row r is slab[off[r], off[r + 1]), its JSON ends at split[r]. */
export class SlabRows implements RowBytes {
  readonly bytes: number;
  readonly compressed = false;
  constructor(private readonly slab: Buffer, private readonly off: Uint32Array, private readonly split: Uint32Array) {
    this.bytes = slab.length;
  }
  get rawBytes(): number { return this.slab.length; }
  json(r: number): string { return this.slab.toString('utf8', this.off[r]!, this.split[r]!); }
  extra(r: number): string | null {
    const s = this.split[r]!, e = this.off[r + 1]!;
    return s === e ? null : this.slab.toString('utf8', s, e);
  }
  jsonBytes(r: number): Buffer { return this.slab.subarray(this.off[r]!, this.split[r]!); }
  jsonBytesOf(r: number): number { return this.split[r]! - this.off[r]!; }
  extraBytesOf(r: number): number { return this.off[r + 1]! - this.split[r]!; }
  copyRow(r: number, out: Buffer, at: number): number {
    return this.slab.copy(out, at, this.off[r]!, this.off[r + 1]!);
  }
}

/** Builds SlabRows for n rows holding `total` bytes in all. */
export class SlabRowsBuilder implements RowBytesBuilder {
  private readonly slab: Buffer;
  private readonly off: Uint32Array;
  private readonly split: Uint32Array;
  private i = 0;
  private at = 0;
  constructor(n: number, total: number) {
    if (total > MAX_SLAB_BYTES) throw new Error(`internal: a segment of ${total} bytes exceeds the slab limit`);
    this.slab = Buffer.allocUnsafeSlow(total);
    this.off = new Uint32Array(n + 1);
    this.split = new Uint32Array(n);
  }
  add(src: RowSource, _srcRows: RowBytes | null, r: number): void {
    const i = this.i++;
    this.off[i] = this.at;
    this.split[i] = this.at + src.jsonBytesOf(r);
    this.at += src.copyRow(r, this.slab, this.at);
  }
  finish(): RowBytes {
    this.off[this.i] = this.at;
    return new SlabRows(this.slab, this.off, this.split);
  }
}
