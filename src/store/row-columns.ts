// The open segment's per-row columns (timestamp, sequence, project, shape, hot ids): JS arrays while the
// segment is small, typed arrays grown by doubling (in huge pages once big) past TYPED_FROM rows.

import { allocBig } from './big-buffer.ts';
import { PlainTs } from './ts-column.ts';

/** A column of numbers (timestamps, sequence numbers). */
export type NumColumn = number[] | Float64Array;
/** A column of ids (projects, shapes, hot dictionary ids: integers from 0). */
export type IdsColumn = number[] | Uint32Array;

/**
 * Rows past which the columns move to typed arrays. The server's open segments seal at 4096 rows and never
 * get here; the CLI's column store (column-query.ts) keeps a whole file's rows in one, and V8 grows a big JS
 * array by half again into fresh memory each time: 460k rows cost the CLI's main thread ~14k page faults and
 * ~0.3 s in those pushes (bench/CLI.md, round 13). At 65,536 rows the young generation's scavenges still
 * copied the growing arrays (~45 ms of the CLI's main thread; round 14), so the move comes at 8,192.
 */
export const TYPED_FROM = 1 << 13;
/** The most rows a seal bound (maxRows) makes the typed columns hold at once (~112 MB of address space). */
const MAX_RESERVE = 1 << 22;

function f64(n: number): Float64Array {
  const b = allocBig(n * 8);
  return new Float64Array(b.buffer, b.byteOffset, n);
}

function u32(n: number): Uint32Array {
  const b = allocBig(n * 4);
  return new Uint32Array(b.buffer, b.byteOffset, n);
}

interface Typed {
  ts: Float64Array;
  seq: Float64Array;
  pid: Uint32Array;
  shape: Uint32Array;
  hot: Uint32Array[];
}

/** The typed columns' exact-length views for `n` rows. */
interface Views {
  n: number;
  ts: PlainTs<NumColumn>;
  seq: Float64Array;
  pid: Uint32Array;
  shape: Uint32Array;
  hot: Uint32Array[];
}

/** Rows' columns taking appends; readers see arrays exactly as long as the rows (views, rebuilt after appends). */
export class RowColumns {
  private n = 0;
  private jsTs: PlainTs<NumColumn> = new PlainTs<NumColumn>([]);
  private jsSeq: number[] = [];
  private jsPid: number[] = [];
  private jsShape: number[] = [];
  private jsHot: number[][];
  private typed: Typed | null = null;
  private cap = 0;
  private views: Views | null = null;

  /** `maxRows`: rows the segment may reach (its seal bound); the typed columns are made that big at once when it is past TYPED_FROM. */
  constructor(hotCount: number, private readonly maxRows = 0) {
    this.jsHot = Array.from({ length: hotCount }, () => []);
  }

  get length(): number { return this.n; }
  get ts(): PlainTs<NumColumn> { return this.typed === null ? this.jsTs : this.view().ts; }
  get seq(): NumColumn { return this.typed === null ? this.jsSeq : this.view().seq; }
  get pid(): IdsColumn { return this.typed === null ? this.jsPid : this.view().pid; }
  get shape(): IdsColumn { return this.typed === null ? this.jsShape : this.view().shape; }
  get hot(): readonly IdsColumn[] { return this.typed === null ? this.jsHot : this.view().hot; }

  /**
   * Bytes the columns hold: 8 per value as JS arrays (as counted before typed columns); once typed, the rows'
   * width times the rows (the capacity past them is uninitialised memory, resident only once written).
   */
  get residentBytes(): number {
    return this.typed === null ? this.n * 8 * (4 + this.jsHot.length) : this.n * (8 + 8 + 4 + 4 + 4 * this.jsHot.length);
  }

  push(ts: number, seq: number, pid: number, shape: number, hot: readonly number[]): void {
    let t = this.typed;
    if (t === null) {
      (this.jsTs.v as number[]).push(ts);
      this.jsSeq.push(seq);
      this.jsPid.push(pid);
      this.jsShape.push(shape);
      for (let h = 0; h < this.jsHot.length; h++) this.jsHot[h]!.push(hot[h]!);
      if (++this.n === TYPED_FROM) this.grow(Math.max(2 * TYPED_FROM, Math.min(this.maxRows, MAX_RESERVE)));
      return;
    }
    if (this.n === this.cap) {
      this.grow(2 * this.cap);
      t = this.typed!;
    }
    const r = this.n++;
    t.ts[r] = ts;
    t.seq[r] = seq;
    t.pid[r] = pid;
    t.shape[r] = shape;
    for (let h = 0; h < t.hot.length; h++) t.hot[h]![r] = hot[h]!;
  }

  /** Maps every row's id in hot column h, in place (new ids fit: they are at most the old dictionary's size). */
  remapHot(h: number, map: (old: number) => number): void {
    const col = this.typed === null ? this.jsHot[h]! : this.typed.hot[h]!;
    for (let r = 0; r < this.n; r++) col[r] = map(col[r]!);
  }

  /** Moves the rows into typed columns of `cap` rows (from the JS arrays, or the smaller typed columns). */
  private grow(cap: number): void {
    const n = this.n, old = this.typed;
    const next: Typed = { ts: f64(cap), seq: f64(cap), pid: u32(cap), shape: u32(cap), hot: this.jsHot.map(() => u32(cap)) };
    if (old === null) {
      next.ts.set(this.jsTs.v);
      next.seq.set(this.jsSeq);
      next.pid.set(this.jsPid);
      next.shape.set(this.jsShape);
      this.jsHot.forEach((h, i) => next.hot[i]!.set(h));
      // Not read here again. Dropped, never truncated: a reader holding them keeps the rows it was given.
      this.jsTs = new PlainTs<NumColumn>([]);
      this.jsSeq = [];
      this.jsPid = [];
      this.jsShape = [];
      this.jsHot = this.jsHot.map(() => []);
    } else {
      next.ts.set(old.ts.subarray(0, n));
      next.seq.set(old.seq.subarray(0, n));
      next.pid.set(old.pid.subarray(0, n));
      next.shape.set(old.shape.subarray(0, n));
      old.hot.forEach((h, i) => next.hot[i]!.set(h.subarray(0, n)));
    }
    this.typed = next;
    this.cap = cap;
    this.views = null;
  }

  private view(): Views {
    const t = this.typed!, n = this.n;
    if (this.views === null || this.views.n !== n) {
      this.views = {
        n, ts: new PlainTs<NumColumn>(t.ts.subarray(0, n)), seq: t.seq.subarray(0, n), pid: t.pid.subarray(0, n),
        shape: t.shape.subarray(0, n), hot: t.hot.map((h) => h.subarray(0, n)),
      };
    }
    return this.views;
  }
}
