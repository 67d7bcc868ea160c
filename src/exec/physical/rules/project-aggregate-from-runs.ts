// Rule ProjectAggregateFromRuns: `GROUP BY project` (the top-level project column) with only COUNT(*),
// COUNT/MIN/MAX of timestamp or project, straight over an unordered scan (through projections of plain
// columns), aggregates from the segments' project-id and timestamp columns: no row object, no expression.

import type { BExpr, ScanPlan } from '../../../plan/bound.ts';
import { originOf } from '../../../plan/origin-of.ts';
import type { AggregatePlan } from '../physical-plan.ts';
import { plainScan } from './plain-scan.ts';

/** One aggregate of the fast path: what it computes, over which column (null: COUNT(*)). */
export interface ProjectAggPlan {
  fn: 'count' | 'min' | 'max';
  col: 'timestamp' | 'project' | null;
}

export interface ProjectAggregateChoice {
  scan: ScanPlan;
  aggs: ProjectAggPlan[];
}

/** The byteless column (timestamp, project) `e` reads straight from `scan`, else null. */
function scanColumn(e: BExpr, scan: ScanPlan): 'timestamp' | 'project' | null {
  const o = originOf(e);
  if (!o || o.scan !== scan || o.element || o.path.length !== 1) return null;
  return o.path[0] === 'timestamp' || o.path[0] === 'project' ? o.path[0] : null;
}

function aggOf(a: BExpr, scan: ScanPlan): ProjectAggPlan | null {
  if (a.k !== 'agg' || a.distinct) return null;
  const name = a.agg.name.toUpperCase();
  if (name === 'COUNT' && a.star) return { fn: 'count', col: null };
  if ((name !== 'COUNT' && name !== 'MIN' && name !== 'MAX') || a.args.length !== 1) return null;
  const col = scanColumn(a.args[0]!, scan);
  return col === null ? null : { fn: name === 'COUNT' ? 'count' : name === 'MIN' ? 'min' : 'max', col };
}

/** The scan and aggregates of `plan`, or null when the rule does not apply. */
export function projectAggregateFromRuns(plan: AggregatePlan): ProjectAggregateChoice | null {
  if (plan.keys.length !== 1 || plan.aggs.length === 0) return null;
  const scan = plainScan(plan.input);
  if (scan === null || scan.order !== 'any' || scan.source.scanRuns === undefined) return null;
  const p = scan.source.def.projectPath;
  if (p.length !== 1 || p[0] !== 'project' || scanColumn(plan.keys[0]!, scan) !== 'project') return null;
  const aggs: ProjectAggPlan[] = [];
  for (const a of plan.aggs) {
    const x = aggOf(a, scan);
    if (x === null) return null;
    aggs.push(x);
  }
  return { scan, aggs };
}
