// A one-row relation of constants (`WITH dates AS (SELECT <constant> AS start)`): its columns carry
// their values, so references to them fold like literals (traced when they came from parameters).

import type { BExpr, ColInfo, Plan } from './bound.ts';
import { traced } from './param-trace.ts';

/**
 * When a plan is one row of constants (`WITH dates AS (SELECT <constant> AS start)`), its columns
 * marked with their values, so references fold and time bounds reach the scans; else null.
 */
export function constantColumns(plan: Plan): ColInfo[] | null {
  if (plan.k !== 'project' || plan.input.k !== 'values' || plan.input.rows.length !== 1) return null;
  if (!plan.exprs.every((e) => e.k === 'const')) return null;
  return plan.cols.map((c, i) => {
    const e = plan.exprs[i] as Extract<BExpr, { k: 'const' }>;
    const constant: NonNullable<ColInfo['constant']> = e.clock ? { value: e.value, clock: e.clock } : { value: e.value };
    if (traced(e)) constant.src = e;
    return { ...c, constant };
  });
}
