// A sealed segment's timestamp column, frame-of-reference encoded: the segment's smallest timestamp plus a
// per-row offset of 40 bits (a Uint32 low part and a Uint8 high part: 5 bytes a row instead of 8) or 48 bits
// when the segment spans more than ~12.7 days; a column that does not fit (fractional µs) stays Float64.

import type { UintArray } from './narrow.ts';

/**
 * What readers of a timestamp column need: the value at row r. Implemented by TsColumn and PlainTs only:
 * Array.prototype.at and TypedArray.prototype.at are not inlined by Node 20's compiler (~40x an index read).
 */
export interface TsRead {
  readonly length: number;
  at(r: number): number;
}

/** A timestamp column held as plain numbers (the open segment's, a scan batch's). */
export class PlainTs<A extends number[] | Float64Array = number[]> implements TsRead {
  constructor(readonly v: A) {}
  get length(): number { return this.v.length; }
  at(r: number): number { return this.v[r]!; }
}

const LO = 4294967296;

export class TsColumn implements TsRead {
  private constructor(
    readonly length: number,
    /** The smallest timestamp; row r's is base + hi[r] * 2^32 + lo[r] (raw null), or raw[r]. */
    private readonly base: number,
    private readonly lo: Uint32Array,
    private readonly hi: UintArray,
    private readonly raw: Float64Array | null,
  ) {}

  /** The column holding `ts` exactly, in the narrowest of the encodings above that fits. */
  static of(ts: ArrayLike<number>): TsColumn {
    const n = ts.length;
    let min = Infinity, max = -Infinity, whole = true;
    for (let i = 0; i < n; i++) {
      const t = ts[i]!;
      if (t < min) min = t;
      if (t > max) max = t;
      if (!Number.isSafeInteger(t)) whole = false;
    }
    const span = max - min;
    if (n === 0 || !whole || !(span < 2 ** 48) || !Number.isSafeInteger(max - min)) {
      return new TsColumn(n, 0, new Uint32Array(0), new Uint8Array(0), Float64Array.from(ts));
    }
    const lo = new Uint32Array(n), hi = span < 2 ** 40 ? new Uint8Array(n) : new Uint16Array(n);
    for (let i = 0; i < n; i++) {
      const d = ts[i]! - min, h = Math.floor(d / LO);
      lo[i] = d - h * LO;
      hi[i] = h;
    }
    return new TsColumn(n, min, lo, hi, null);
  }

  /** Row r's timestamp (µs). */
  at(r: number): number {
    const raw = this.raw;
    if (raw !== null) return raw[r]!;
    return this.base + this.hi[r]! * LO + this.lo[r]!;
  }

  /** Resident bytes of the column. */
  get byteLength(): number {
    return this.raw !== null ? this.raw.byteLength : this.lo.byteLength + this.hi.byteLength;
  }

  /** Whether the column is held frame-of-reference encoded (false: plain Float64). */
  get packed(): boolean {
    return this.raw === null;
  }

  /** The timestamps as a Float64Array (a checkpoint writes them so). */
  toFloat64(): Float64Array {
    if (this.raw !== null) return this.raw;
    const out = new Float64Array(this.length);
    for (let i = 0; i < out.length; i++) out[i] = this.at(i);
    return out;
  }
}
