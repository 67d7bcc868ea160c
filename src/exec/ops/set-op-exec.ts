// SetOpExec: UNION, INTERSECT and EXCEPT (ALL or DISTINCT) over inputs whose rows are arrays of
// values in column order; the right-side counts are built across slices.

import type { Accessor } from '../../plan/compile-expr.ts';
import { arrayAccessor, type Operator } from '../operator.ts';
import type { ExecContext } from '../context.ts';
import { groupKey, type Value } from '../../core/values.ts';

/** Set operations over inputs whose rows are normalised to arrays of values in column order. */
export class SetOpExec implements Operator {
  private idx = 0;
  private readonly seen = new Set<string>();
  private rightKeys: Map<string, number> | null = null;
  private rightBuilt = false;
  /** Next input the right-side count reads (inputs after the first). */
  private buildInput = 1;
  constructor(
    private readonly inputs: { op: Operator; accs: Accessor[] }[],
    private readonly op: 'union' | 'intersect' | 'except',
    private readonly all: boolean,
    private readonly ids: number[],
    private readonly ctx: ExecContext,
  ) {}

  private static key(vals: Value[]): string {
    let k = '';
    for (const v of vals) k += groupKey(v) + '\u0001';
    return k;
  }

  /** Counts the rows of every input but the first (INTERSECT/EXCEPT); false while the slice ended first. */
  private buildRight(): boolean {
    const keys = (this.rightKeys ??= new Map());
    while (this.buildInput < this.inputs.length) {
      const inp = this.inputs[this.buildInput]!;
      const b = inp.op.next();
      if (b === null) { this.buildInput++; continue; }
      for (const r of b) {
        const k = SetOpExec.key(inp.accs.map((a) => a(r)));
        keys.set(k, (keys.get(k) ?? 0) + 1);
      }
      this.ctx.meter.tick(b.length);
      if (this.ctx.yieldDue) return false;
    }
    this.rightBuilt = true;
    return true;
  }

  next(): unknown[] | null {
    if (this.op !== 'union' && !this.rightBuilt && !this.buildRight()) return [];
    while (this.idx < this.inputs.length) {
      const inp = this.inputs[this.idx]!;
      const b = inp.op.next();
      if (b === null) {
        if (this.op !== 'union') break;
        this.idx++;
        continue;
      }
      if (b.length === 0) return b;
      const out: unknown[] = [];
      for (const r of b) {
        const vals = inp.accs.map((a) => a(r));
        const k = SetOpExec.key(vals);
        if (this.op !== 'union') {
          const n = this.rightKeys!.get(k) ?? 0;
          const keep = this.op === 'intersect' ? n > 0 : n === 0;
          if (!keep) { if (this.all && this.op === 'intersect') continue; if (!this.all || this.op === 'intersect') continue; }
          if (this.all && this.op === 'intersect') this.rightKeys!.set(k, n - 1);
        }
        if (!this.all) {
          if (this.seen.has(k)) continue;
          this.seen.add(k);
        }
        out.push(vals);
      }
      this.ctx.meter.tick(b.length);
      if (out.length || this.ctx.yieldDue) return out;
    }
    return null;
  }

  acc(id: number): Accessor {
    return arrayAccessor(this.ids, id, 'set operation');
  }
  raw(): null { return null; }
}
