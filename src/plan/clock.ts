// Where a planned query depends on CURRENT_TIMESTAMP. Folding keeps clock-dependent constants
// marked (bound.ts Clock) and pushdown marks the scan bounds they became; this reads those marks.

import type { BExpr, Plan, ScanPlan } from './bound.ts';
import { someNode } from './expr-util.ts';
import { children } from './explain.ts';

/**
 * Whether the answer depends on the clock at most through `scan`'s lower time bound, and there as
 * now + a fixed offset. Then, with the same data, the answer changes only when that moving bound
 * passes a row the query counted.
 */
export function clockOnlyInWindowStart(plan: Plan, scan: ScanPlan): boolean {
  const exprOk = (e: BExpr): boolean =>
    !someNode(e, (x) => (x.k === 'const' && x.clock !== undefined) || (x.k === 'subquery' && !planOk(x.plan)));
  const planOk = (p: Plan): boolean => {
    switch (p.k) {
      case 'scan':
        if (p === scan) return p.maxTsClock === undefined && p.minTsClock !== 'other';
        return p.minTsClock === undefined && p.maxTsClock === undefined;
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
