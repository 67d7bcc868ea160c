// Where a planned query depends on CURRENT_TIMESTAMP and on stored data. Folding keeps clock-dependent constants
// marked (bound.ts Clock) and pushdown marks the scan bounds they became; this reads those marks.

import type { BExpr, Plan, ScanPlan } from './bound.ts';
import { someNode } from './expr-walk.ts';
import { children } from './explain.ts';

/**
 * Whether the answer depends on stored data only through `scan` (no other scan anywhere, subqueries
 * included) and on the clock at most through that scan's lower time bound, as now + a fixed offset.
 * Then, while that source is unchanged, the answer changes only when the moving bound passes a row
 * the query counted.
 */
export function dependsOnlyOnScanAndWindowStart(plan: Plan, scan: ScanPlan): boolean {
  const exprOk = (e: BExpr): boolean =>
    !someNode(e, (x) => (x.k === 'const' && x.clock !== undefined) || (x.k === 'subquery' && !planOk(x.plan)));
  const planOk = (p: Plan): boolean => {
    switch (p.k) {
      case 'scan':
        return p === scan && p.maxTsClock === undefined && p.minTsClock !== 'other';
      case 'values': if (!p.rows.every((r) => r.every(exprOk))) return false; break;
      case 'filter': if (!exprOk(p.pred)) return false; break;
      case 'project': if (!p.exprs.every(exprOk)) return false; break;
      case 'unnest': if (!exprOk(p.array)) return false; break;
      case 'join': if (p.on && !exprOk(p.on)) return false; break;
      case 'aggregate': if (!p.keys.every(exprOk) || !p.aggs.every(exprOk)) return false; break;
      case 'sort': if (!p.keys.every((k) => exprOk(k.expr))) return false; break;
      default: break; // rows, limit, distinct, setop carry no expressions
    }
    return children(p).every(planOk);
  };
  return planOk(plan);
}
