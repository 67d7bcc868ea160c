// SortExec: ORDER BY over all of its input, sorted in runs merged lazily so a big sort
// resumes across slices like any other work.

import type { Accessor } from '../../plan/compile-expr.ts';
import type { Operator } from '../operator.ts';
import type { ScanRow } from '../scan-row.ts';
import type { ExecContext } from '../context.ts';
import type { Value } from '../../core/values.ts';
import { compareSortKeys } from '../../core/sort-keys.ts';

const BATCH = 1024;

interface Keyed {
  r: unknown;
  k: Value[];
}

/** Rows sorted per run; runs are merged lazily, so a big sort is cut into slices like any other work. */
const RUN_ROWS = 16_384;

export class SortExec implements Operator {
  private readonly runs: Keyed[][] = [];
  private current: Keyed[] = [];
  private collected = false;
  /** Read positions of the runs during the merge. */
  private heads: number[] = [];
  private readonly cmp: (a: Keyed, b: Keyed) => number;

  constructor(private readonly input: Operator, private readonly keys: { acc: Accessor; desc: boolean; nullsFirst: boolean }[], private readonly ctx: ExecContext) {
    this.cmp = (a, b) => compareSortKeys(a.k, 0, b.k, 0, keys);
  }

  /** Sorts the run being filled (a stable sort) and starts a new one. */
  private closeRun(): void {
    if (!this.current.length) return;
    this.current.sort(this.cmp);
    this.ctx.meter.tick(this.current.length);
    this.runs.push(this.current);
    this.current = [];
  }

  next(): unknown[] | null {
    const m = this.ctx.meter;
    while (!this.collected) {
      const b = this.input.next();
      if (b === null) {
        this.closeRun();
        this.collected = true;
        this.heads = this.runs.map(() => 0);
        break;
      }
      if (b.length === 0) return b;
      for (const r of b) {
        this.current.push({ r, k: this.keys.map((k) => k.acc(r)) });
        if (this.current.length >= RUN_ROWS) this.closeRun();
      }
      m.tick(b.length);
      if (m.sliceDue) return [];
    }
    return this.merge();
  }

  /**
   * Up to BATCH rows of the k-way merge. Ties go to the earlier run, whose rows came earlier in the input,
   * so the result equals one stable sort of the whole input.
   */
  private merge(): unknown[] | null {
    const { runs, heads, cmp } = this;
    const out: unknown[] = [];
    while (out.length < BATCH) {
      let best = -1;
      for (let i = 0; i < runs.length; i++) {
        if (heads[i]! >= runs[i]!.length) continue;
        if (best < 0 || cmp(runs[i]![heads[i]!]!, runs[best]![heads[best]!]!) < 0) best = i;
      }
      if (best < 0) break;
      out.push(runs[best]![heads[best]!++]!.r);
    }
    this.ctx.meter.tick(out.length);
    return out.length ? out : null;
  }

  acc(id: number): Accessor { return this.input.acc(id); }
  raw(scanId: number): ((row: unknown) => ScanRow) | null { return this.input.raw(scanId); }
}
