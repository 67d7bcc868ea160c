// HotBucketAggExec: `GROUP BY TIMESTAMP_TRUNC(timestamp, <fixed unit>)` with COUNT(*) / COUNT(x) /
// COUNTIF(x) over a hot unnest chain, vectorised: per row only the bucket arithmetic and a byte lookup
// per counter (each counter's argument reads one hot leaf, so it is evaluated once per dictionary value).

import { truncWidthUs } from '../../core/date-parts.ts';
import type { Accessor } from '../../plan/compile-expr.ts';
import type { Value } from '../../core/values.ts';
import { arrayAccessor, type Operator } from '../operator.ts';
import { predicateMemo } from '../predicate-memo.ts';
import type { ScanRow } from '../scan-row.ts';
import type { HotUnnestExec } from './hot-unnest-exec.ts';
import type { ExecContext } from '../context.ts';

/** One counter: COUNT(*) (arg null), COUNT(arg) or COUNTIF(arg); `leaf` is the hot leaf arg reads, `key` arg's canonical text. */
export interface HotCounter {
  kind: 'count' | 'countif';
  arg: Accessor | null;
  leaf: number;
  key: string;
}

const UNKNOWN = 0, YES = 1, NO = 2;


export class HotBucketAggExec implements Operator {
  private done = false;

  /**
   * `unit` is a fixed-width TIMESTAMP_TRUNC part (MICROSECOND..DAY); `key` and `counters[i].arg` are also
   * compiled against `input` for the rows of inexact events, which take the generic path.
   */
  constructor(
    private readonly input: HotUnnestExec,
    private readonly unit: string,
    private readonly key: Accessor,
    private readonly counters: HotCounter[],
    private readonly ids: number[],
    private readonly ctx: ExecContext,
  ) {}

  /** Counts per bucket start (null for a NULL key), kept across slices. */
  private readonly groups = new Map<number | null, Float64Array>();
  private memos: Uint8Array[] | null = null;

  private group(k: number | null): Float64Array {
    let g = this.groups.get(k);
    if (!g) { g = new Float64Array(this.counters.length); this.groups.set(k, g); }
    return g;
  }

  next(): unknown[] | null {
    if (this.done) return null;
    const nc = this.counters.length;
    const groups = this.groups;
    const memos = (this.memos ??= this.counters.map((c) => (c.arg === null ? new Uint8Array(0) : predicateMemo(this.input.leafDict(c.leaf), `${c.kind}:${c.key}`))));
    const width = truncWidthUs(this.unit)!;
    // The bucket [lo, hi) of the last row: rows come sorted by time within a project, so mostly the same.
    let lo = NaN, hi = NaN;
    let last: Float64Array | null = null;
    for (let s = this.input.nextSelection(); s !== null; s = this.input.nextSelection()) {
      const { ts, hot, sel, n } = s;
      const cols = this.counters.map((c) => (c.arg === null ? null : hot[c.leaf]!));
      for (let j = 0; j < n; j++) {
        const i = sel[j]!;
        const t = ts.at(i);
        if (!(t >= lo && t < hi)) {
          lo = t - (((t % width) + width) % width);
          hi = lo + width;
          last = this.group(lo);
        }
        const g = last!;
        for (let c = 0; c < nc; c++) {
          const col = cols[c]!;
          if (col === null) { g[c]!++; continue; }
          const id = col[i]!;
          const memo = memos[c]!;
          const m = id < memo.length && memo[id] !== UNKNOWN ? memo[id]! : this.classify(c, id, memo);
          if (m === YES) g[c]!++;
        }
      }
      for (const r of s.generic) {
        const kv = this.key(r);
        const g = this.group(typeof kv === 'number' ? kv : null);
        for (let c = 0; c < nc; c++) {
          const ctr = this.counters[c]!;
          if (ctr.arg === null) { g[c]!++; continue; }
          const v = ctr.arg(r);
          if (ctr.kind === 'countif' ? v === true : v !== null) g[c]!++;
        }
      }
      if (this.ctx.yieldDue) return [];
    }
    this.done = true;
    if (groups.size === 0) return null;
    const out: Value[][] = [];
    for (const [k, g] of groups) out.push([k, ...Array.from(g)]);
    groups.clear();
    return out;
  }

  /** Counter c's answer for dictionary value `id` of its leaf (YES or NO), remembered in its memo. */
  private classify(c: number, id: number, memo: Uint8Array): number {
    const ctr = this.counters[c]!;
    const v = ctr.arg!(this.input.scratchRow(ctr.leaf, id));
    const m = (ctr.kind === 'countif' ? v === true : v !== null) ? YES : NO;
    if (id < memo.length) memo[id] = m;
    return m;
  }

  acc(id: number): Accessor {
    return arrayAccessor(this.ids, id, 'bucket aggregate');
  }

  raw(): ((row: unknown) => ScanRow) | null {
    return null;
  }
}
