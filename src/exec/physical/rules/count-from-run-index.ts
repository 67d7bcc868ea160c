// Rule CountFromRunIndex: `SELECT COUNT(*)` with no GROUP BY over a scan (through projections of plain
// columns and sorts of them, as logs.all's CTE is) is counted from the store's indexes: per segment a
// binary search over the project's run of timestamps, no row read.

import type { Plan, ScanPlan } from '../../../plan/bound.ts';
import type { AggregatePlan } from '../physical-plan.ts';

/** The scan whose rows `plan` counts, or null when the rule does not apply. */
export function countFromRunIndex(plan: AggregatePlan): ScanPlan | null {
  if (plan.keys.length !== 0 || plan.aggs.length === 0) return null;
  for (const a of plan.aggs) {
    if (a.k !== 'agg' || a.agg.name.toUpperCase() !== 'COUNT' || !a.star || a.distinct) return null;
  }
  const scan = rowPreservingScan(plan.input);
  return scan !== null && scan.source.countRows !== undefined ? scan : null;
}

/** The scan under a chain of nodes that neither drop, add nor fail on rows (plain-column projections, sorts). */
function rowPreservingScan(p: Plan): ScanPlan | null {
  for (;;) {
    if (p.k === 'scan') return p;
    if (p.k === 'project' && p.exprs.every((e) => e.k === 'col')) p = p.input;
    else if (p.k === 'sort' && p.keys.every((k) => k.expr.k === 'col')) p = p.input;
    else return null;
  }
}
