// FilterExec: keeps the rows whose predicate is TRUE without materialising its input;
// it stops mid-batch when the query's slice is used up and resumes there.

import type { Accessor } from '../../plan/compile-expr.ts';
import type { Operator } from '../operator.ts';
import type { ScanRow } from '../scan-row.ts';
import type { ExecContext } from '../context.ts';

export class FilterExec implements Operator {
  /** Resume point inside the input batch when a slice ended mid-batch. */
  private batch: unknown[] | null = null;
  private at = 0;
  constructor(private readonly input: Operator, private readonly pred: Accessor, private readonly ctx: ExecContext) {}
  next(): unknown[] | null {
    const m = this.ctx.meter;
    for (;;) {
      if (this.batch === null) {
        const b = this.input.next();
        if (b === null || b.length === 0) return b; // exhausted, or a child yielding its slice
        this.batch = b;
        this.at = 0;
      }
      const batch = this.batch, pred = this.pred;
      const out: unknown[] = [];
      let i = this.at;
      while (i < batch.length) {
        const r = batch[i++];
        if (pred(r) === true) out.push(r);
        m.tick();
        if (m.sliceDue) break;
      }
      if (i >= batch.length) this.batch = null;
      else this.at = i;
      if (out.length || m.sliceDue) return out;
    }
  }
  acc(id: number): Accessor { return this.input.acc(id); }
  raw(scanId: number): ((row: unknown) => ScanRow) | null { return this.input.raw(scanId); }
}
