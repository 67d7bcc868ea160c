// BucketCountExec: `GROUP BY TIMESTAMP_TRUNC(timestamp, <fixed unit>)` with COUNT(*)s only, counted from
// the segments' timestamp columns in storage order (rule BucketCountFromTimestamps): no row is made.

import { truncWidthUs } from '../../core/date-parts.ts';
import { truncTimestamp } from '../../core/time-arithmetic.ts';
import type { Accessor } from '../../plan/compile-expr.ts';
import type { ExecContext } from '../context.ts';
import { arrayAccessor, type Operator } from '../operator.ts';
import type { ScanExec } from './scan-exec.ts';
import type { ScanPlan } from '../../plan/bound.ts';

export class BucketCountExec implements Operator {
  private done = false;
  /** Rows per bucket start, in the order the buckets were first met (as the general aggregation's groups). */
  private readonly groups = new Map<number, number>();

  private readonly width: number;

  /**
   * `scan` reads the rows in storage order (column runs when the source has them); `order` is the order
   * the plan's scan promised, which decides the order of the groups. `ids`: the aggregate's output
   * columns, the key first, then every COUNT(*).
   */
  constructor(private readonly scan: ScanExec, private readonly order: ScanPlan['order'], private readonly unit: string, private readonly ids: number[], private readonly ctx: ExecContext) {
    const width = truncWidthUs(unit);
    if (width === undefined) throw new Error(`internal: BucketCountFromTimestamps with the unit ${unit}`);
    this.width = width;
  }

  next(): unknown[] | null {
    if (this.done) return null;
    const m = this.ctx.meter;
    for (;;) {
      const n = this.scan.runMode ? this.countRun() : this.countBatch();
      if (n < 0) break;
      m.tick(n);
      if (m.sliceDue) return [];
    }
    this.done = true;
    if (this.groups.size === 0) return null;
    const counts = this.ids.length - 1;
    const keys = [...this.groups.keys()];
    // An ordered scan meets the buckets in its time order: counted in storage order, they are put back in it.
    if (this.order === 'desc') keys.sort((a, b) => b - a);
    else if (this.order === 'asc') keys.sort((a, b) => a - b);
    const out = keys.map((k) => [k, ...new Array<number>(counts).fill(this.groups.get(k)!)]);
    this.groups.clear();
    return out;
  }

  /** Counts the next column run's rows; -1 when the scan is done. */
  private countRun(): number {
    const r = this.scan.nextRun();
    if (r === null) return -1;
    const { ts, sel, n } = r;
    for (let j = 0; j < n; j++) this.count(ts.at(sel[j]!));
    this.flush();
    return n;
  }

  /** Counts the next batch's rows; -1 when the scan is done. */
  private countBatch(): number {
    const b = this.scan.nextRaw();
    if (b === null) return -1;
    const ts = b.ts;
    for (let i = 0; i < b.n; i++) this.count(ts[i]!);
    this.flush();
    return b.n;
  }

  // The bucket [lo, hi) of the last row and its rows not yet added to `groups`.
  private lo = NaN;
  private hi = NaN;
  private pending = 0;

  private count(t: number): void {
    if (t >= this.lo && t < this.hi) { this.pending++; return; }
    this.flush();
    // The same function the general path calls, once per bucket change (it also handles the maximum timestamp).
    this.lo = truncTimestamp(t, this.unit);
    this.hi = this.lo + this.width;
    if (!this.groups.has(this.lo)) this.groups.set(this.lo, 0);
    this.pending = 1;
  }

  private flush(): void {
    if (this.pending > 0) this.groups.set(this.lo, this.groups.get(this.lo)! + this.pending);
    this.pending = 0;
  }

  acc(id: number): Accessor {
    return arrayAccessor(this.ids, id, 'bucket count');
  }

  raw(): null {
    return null;
  }
}
