// ProjectExec: computes the SELECT list row by row without materialising its input; it stops
// mid-batch when the query's slice is used up and resumes there.

import type { BExpr } from '../../plan/bound.ts';
import type { Accessor } from '../../plan/compile-expr.ts';
import { missingColumn, type Operator } from '../operator.ts';
import type { ScanRow } from '../scan-row.ts';
import type { ExecContext } from '../context.ts';

/**
 * ProjectExec: when every output is a column of the input it renames only (rows pass through);
 * otherwise each output row is [inputRow, computed values...].
 */
export class ProjectExec implements Operator {
  private readonly accs = new Map<number, Accessor>();
  private readonly computed: Accessor[] = [];
  private readonly passthrough: boolean;
  /** Resume point inside the input batch when a slice ended mid-batch. */
  private batch: unknown[] | null = null;
  private at = 0;

  constructor(private readonly input: Operator, exprs: BExpr[], outIds: number[], compile: (e: BExpr) => Accessor, private readonly ctx: ExecContext) {
    this.passthrough = exprs.every((e) => e.k === 'col');
    exprs.forEach((e, i) => {
      const outId = outIds[i]!;
      if (e.k === 'col') {
        const inner = input.acc(e.id);
        this.accs.set(outId, this.passthrough ? inner : (r) => inner((r as unknown[])[0]));
      } else {
        const slot = this.computed.length + 1;
        this.computed.push(compile(e));
        this.accs.set(outId, (r) => (r as unknown[])[slot] as ReturnType<Accessor>);
      }
    });
  }

  next(): unknown[] | null {
    if (this.passthrough) return this.input.next();
    if (this.batch === null) {
      const b = this.input.next();
      if (b === null || b.length === 0) return b;
      this.batch = b;
      this.at = 0;
    }
    const batch = this.batch, comp = this.computed, m = this.ctx.meter;
    const out: unknown[] = [];
    let i = this.at;
    while (i < batch.length) {
      const r = batch[i++];
      const row = new Array<unknown>(comp.length + 1);
      row[0] = r;
      for (let j = 0; j < comp.length; j++) row[j + 1] = comp[j]!(r);
      out.push(row);
      m.tick();
      if (m.sliceDue) break;
    }
    if (i >= batch.length) this.batch = null;
    else this.at = i;
    return out;
  }

  acc(id: number): Accessor { return this.accs.get(id) ?? missingColumn(id, 'projection'); }

  raw(scanId: number): ((row: unknown) => ScanRow) | null {
    const inner = this.input.raw(scanId);
    if (!inner || this.passthrough) return inner;
    return (r) => inner((r as unknown[])[0]);
  }
}
