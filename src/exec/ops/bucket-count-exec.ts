// BucketCountExec: `GROUP BY TIMESTAMP_TRUNC(timestamp, <fixed unit>)` with COUNT(*)s only, counted from
// the scan batches' timestamp column (rule BucketCountFromTimestamps): no row is decoded or made.

import { truncWidthUs } from '../../core/date-parts.ts';
import { truncTimestamp } from '../../core/time-arithmetic.ts';
import type { Accessor } from '../../plan/compile-expr.ts';
import type { Value } from '../../core/values.ts';
import type { ExecContext } from '../context.ts';
import { missingColumn, type Operator } from '../operator.ts';
import type { ScanExec } from './scan-exec.ts';

export class BucketCountExec implements Operator {
  private done = false;
  /** Rows per bucket start, in the order the buckets were first met (as the general aggregation's groups). */
  private readonly groups = new Map<number, number>();

  /** `ids`: the aggregate's output columns, the key first, then every COUNT(*). */
  constructor(private readonly scan: ScanExec, private readonly unit: string, private readonly ids: number[], private readonly ctx: ExecContext) {
    if (truncWidthUs(unit) === undefined) throw new Error(`internal: BucketCountFromTimestamps with the unit ${unit}`);
  }

  next(): unknown[] | null {
    if (this.done) return null;
    const width = truncWidthUs(this.unit)!, groups = this.groups, m = this.ctx.meter;
    // The bucket [lo, lo + width) of the last row and its count so far (flushed when the bucket changes).
    let lo = NaN, hi = NaN, n = 0;
    for (let b = this.scan.nextRaw(); b !== null; b = this.scan.nextRaw()) {
      const ts = b.ts;
      for (let i = 0; i < b.n; i++) {
        const t = ts[i]!;
        if (t >= lo && t < hi) { n++; continue; }
        if (n > 0) groups.set(lo, groups.get(lo)! + n);
        // The same function the general path calls, once per bucket change (it also handles the maximum timestamp).
        lo = truncTimestamp(t, this.unit);
        hi = lo + width;
        if (!groups.has(lo)) groups.set(lo, 0);
        n = 1;
      }
      if (n > 0) { groups.set(lo, groups.get(lo)! + n); n = 0; }
      m.tick(b.n);
      if (m.sliceDue) return [];
    }
    this.done = true;
    if (groups.size === 0) return null;
    const counts = this.ids.length - 1;
    const out: Value[][] = [];
    for (const [k, c] of groups) out.push([k, ...new Array<number>(counts).fill(c)]);
    groups.clear();
    return out;
  }

  acc(id: number): Accessor {
    const i = this.ids.indexOf(id);
    if (i < 0) missingColumn(id, 'bucket count');
    return (r) => (r as Value[])[i]!;
  }

  raw(): null {
    return null;
  }
}
