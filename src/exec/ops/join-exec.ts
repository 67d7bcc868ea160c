// JoinExec: inner/left/right/full/cross joins of two relations. The right side is materialised
// once; an equality ON between one side's and the other's columns uses a hash table.

import type { Accessor } from '../../fn/compile-expr.ts';
import type { ExecContext } from '../context.ts';
import type { Operator } from '../operator.ts';
import { groupKey, type Value } from '../values.ts';

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

  private materialise(): unknown[] {
    if (this.rightRows) return this.rightRows;
    const rows: unknown[] = [];
    for (let b = this.right.next(); b !== null; b = this.right.next()) for (const r of b) rows.push(r);
    this.rightRows = rows;
    if (this.type === 'right' || this.type === 'full') this.rightMatched = new Uint8Array(rows.length);
    if (this.equi) {
      const h = new Map<string, number[]>();
      rows.forEach((r, i) => {
        const k = this.equi!.right(r);
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
    while (!this.leftDone) {
      const batch = this.left.next();
      if (batch === null) { this.leftDone = true; break; }
      const out: unknown[] = [];
      for (const l of batch) {
        let matched = false;
        const candidates = this.candidates(l, rights);
        for (const i of candidates) {
          const pair = [l, rights[i]];
          if (this.on === null || this.on(pair) === true) {
            out.push(pair);
            matched = true;
            if (this.rightMatched) this.rightMatched[i] = 1;
          }
        }
        if (!matched && (this.type === 'left' || this.type === 'full')) out.push([l, null]);
      }
      this.ctx.charge(out.length + batch.length);
      if (out.length) return out;
    }
    if (!this.tailDone && this.rightMatched) {
      this.tailDone = true;
      const out: unknown[] = [];
      rights.forEach((r, i) => { if (!this.rightMatched![i]) out.push([null, r]); });
      if (out.length) return out;
    }
    return null;
  }

  private candidates(l: unknown, rights: unknown[]): Iterable<number> {
    if (this.hash && this.equi) {
      const k = this.equi.left(l);
      return k === null ? [] : this.hash.get(groupKey(k)) ?? [];
    }
    return rights.keys();
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
