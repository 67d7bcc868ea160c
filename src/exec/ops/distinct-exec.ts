// DistinctExec: SELECT DISTINCT, remembering the key of every row it has passed.

import type { Accessor } from '../../plan/compile-expr.ts';
import type { Operator } from '../operator.ts';
import type { ScanRow } from '../scan-row.ts';
import type { ExecContext } from '../context.ts';
import { groupKey } from '../../core/values.ts';

export class DistinctExec implements Operator {
  private readonly seen = new Set<string>();
  private readonly accs: Accessor[];
  constructor(private readonly input: Operator, ids: number[], private readonly ctx: ExecContext) {
    this.accs = ids.map((id) => input.acc(id));
  }
  next(): unknown[] | null {
    for (;;) {
      const b = this.input.next();
      if (b === null || b.length === 0) return b;
      const out: unknown[] = [];
      for (const r of b) {
        let key = '';
        for (const a of this.accs) key += groupKey(a(r)) + '\u0001';
        if (!this.seen.has(key)) { this.seen.add(key); out.push(r); }
      }
      this.ctx.meter.tick(b.length);
      if (out.length || this.ctx.yieldDue) return out;
    }
  }
  acc(id: number): Accessor { return this.input.acc(id); }
  raw(scanId: number): ((row: unknown) => ScanRow) | null { return this.input.raw(scanId); }
}
