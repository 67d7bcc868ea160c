// CountRowsExec: the one row of `SELECT COUNT(*), ...` with no GROUP BY, counted by the store from its
// indexes (rule CountFromRunIndex) at the instant the pipeline is built, as a scan's snapshot would be.

import type { Accessor } from '../../plan/compile-expr.ts';
import type { ScanPlan } from '../../plan/bound.ts';
import type { ExecContext } from '../context.ts';
import { arrayAccessor, type Operator } from '../operator.ts';
import { scanSpec } from './scan-exec.ts';

export class CountRowsExec implements Operator {
  private done = false;
  private readonly n: number;

  /** `ids`: the aggregate's output columns, every one of them COUNT(*). */
  constructor(scan: ScanPlan, private readonly ids: number[], private readonly ctx: ExecContext) {
    const count = scan.source.countRows;
    if (count === undefined) throw new Error('internal: CountFromRunIndex over a source that cannot count rows');
    this.n = count.call(scan.source, scanSpec(scan, ctx, null));
    // The rows the answer covers are reported as scanned (X-Ringql-Rows-Scanned) as before; the work is one step.
    ctx.scanned += this.n;
  }

  next(): unknown[] | null {
    if (this.done) return null;
    this.done = true;
    this.ctx.charge(1);
    return [this.ids.map(() => this.n)];
  }

  acc(id: number): Accessor {
    return arrayAccessor(this.ids, id, 'count');
  }

  raw(): null {
    return null;
  }
}
