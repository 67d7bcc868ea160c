// The scan under a plan made only of projections of plain columns: such projections neither drop, add,
// reorder nor fail on rows, so a rule may read the scan's columns directly and meet groups in the same order.

import type { Plan, ScanPlan } from '../../../plan/bound.ts';

/** The scan under `p` when everything above it projects plain columns; null otherwise. */
export function plainScan(p: Plan): ScanPlan | null {
  for (;;) {
    if (p.k === 'scan') return p;
    if (p.k === 'project' && p.exprs.every((e) => e.k === 'col')) p = p.input;
    else return null;
  }
}
