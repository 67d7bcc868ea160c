// JoinExec: inner/left/right/full/cross joins of two relations. The right side is materialised
// once; an equality ON between one side's and the other's columns uses a hash table.

import type { Accessor } from '../../plan/compile-expr.ts';
import type { ExecContext } from '../context.ts';
import type { Operator } from '../operator.ts';
import { groupKey, type Value } from '../../core/values.ts';

/** Output rows per batch, and pairs examined between time-budget checks. */
const MAX_OUT = 4096;
const CHECK_EVERY = 65_536;

export interface EquiKeys {
  left: Accessor;
  right: Accessor;
}

export class JoinExec implements Operator {
  private rightRows: unknown[] | null = null;
  private hash: Map<string, number[]> | null = null;
  private rightMatched: Uint8Array | null = null;
  private leftDone = false;
  private tailDone = false;
  /** Resume point: the left batch, the row in it, the candidate index, whether that row matched. */
  private batch: unknown[] | null = null;
  private li = 0;
  private ci = 0;
  private matched = false;
  private list: number[] | null = null;
  private readonly leftIds: Set<number>;

  constructor(
    private readonly left: Operator,
    private readonly right: Operator,
    leftIds: number[],
    private readonly type: 'inner' | 'left' | 'right' | 'full' | 'cross',
    /** ON condition over a combined row [l, r]; null = always true. */
    private readonly on: Accessor | null,
    private readonly equi: EquiKeys | null,
    private readonly ctx: ExecContext,
  ) {
    this.leftIds = new Set(leftIds);
  }

  private collecting: unknown[] = [];

  /** The right side, materialised one batch per call; null while the slice ended before it was whole. */
  private materialise(): unknown[] | null {
    if (this.rightRows) return this.rightRows;
    const rows = this.collecting;
    for (let b = this.right.next(); b !== null; b = this.right.next()) {
      for (const r of b) rows.push(r);
      this.ctx.meter.tick(b.length);
      if (this.ctx.yieldDue) return null;
    }
    this.rightRows = rows;
    if (this.type === 'right' || this.type === 'full') this.rightMatched = new Uint8Array(rows.length);
    const equi = this.equi;
    if (equi) {
      const h = new Map<string, number[]>();
      rows.forEach((r, i) => {
        const k = equi.right(r);
        if (k === null) return;
        const key = groupKey(k);
        const list = h.get(key);
        if (list) list.push(i); else h.set(key, [i]);
      });
      this.hash = h;
    }
    return rows;
  }

  next(): unknown[] | null {
    const rights = this.materialise();
    if (rights === null) return [];
    const out: unknown[] = [];
    let work = 0;
    while (out.length < MAX_OUT) {
      if (this.batch === null || this.li >= this.batch.length) {
        if (this.leftDone) break;
        const b = this.left.next();
        if (b === null) { this.leftDone = true; break; }
        if (b.length === 0) return out;
        this.ctx.charge(b.length);
        this.batch = b;
        this.li = 0;
        this.ci = 0;
        this.matched = false;
        this.list = null;
        continue;
      }
      const l = this.batch[this.li];
      if (this.hash && this.equi && this.list === null) {
        const k = this.equi.left(l);
        this.list = k === null ? [] : this.hash.get(groupKey(k)) ?? [];
      }
      const list = this.list;
      const n = list ? list.length : rights.length;
      // Resumable: a big product is cut into batches of MAX_OUT rows, and a condition that rejects
      // everything still checks the time budget every CHECK_EVERY pairs.
      while (this.ci < n && out.length < MAX_OUT) {
        const i = list ? list[this.ci]! : this.ci;
        this.ci++;
        const pair = [l, rights[i]];
        if (this.on === null || this.on(pair) === true) {
          out.push(pair);
          this.matched = true;
          if (this.rightMatched) this.rightMatched[i] = 1;
        }
        if (++work === CHECK_EVERY) { work = 0; this.ctx.charge(0); }
        if (this.ctx.yieldDue) break;
      }
      if (this.ctx.yieldDue && this.ci < n) break;
      if (this.ci >= n) {
        if (!this.matched && (this.type === 'left' || this.type === 'full')) out.push([l, null]);
        this.li++;
        this.ci = 0;
        this.matched = false;
        this.list = null;
      }
      if (this.ctx.yieldDue) break;
    }
    if (out.length || this.ctx.yieldDue) {
      this.ctx.charge(out.length);
      return out;
    }
    const matched = this.rightMatched;
    if (!this.tailDone && matched) {
      this.tailDone = true;
      const tail: unknown[] = [];
      rights.forEach((r, i) => { if (!matched[i]) tail.push([null, r]); });
      if (tail.length) return tail;
    }
    return null;
  }

  acc(id: number): Accessor {
    if (this.leftIds.has(id)) {
      const a = this.left.acc(id);
      return (r) => { const x = (r as unknown[])[0]; return x === null ? null : a(x); };
    }
    const a = this.right.acc(id);
    return (r) => { const x = (r as unknown[])[1]; return x === null ? (null as Value) : a(x); };
  }

  raw(): null {
    return null;
  }
}
