// Rule BucketCountFromTimestamps: `GROUP BY TIMESTAMP_TRUNC(timestamp, MINUTE|HOUR|DAY|...)` with only
// COUNT(*)s, straight over a scan (through projections of plain columns, as logs.all's CTE is once
// PruneUnusedColumns narrowed it), counts from the scan's timestamp column: no row object, no expression.

import type { ScanPlan } from '../../../plan/bound.ts';
import { originOf } from '../../../plan/origin-of.ts';
import type { AggregatePlan } from '../physical-plan.ts';
import { fixedTruncUnit } from './hot-bucket-aggregate.ts';
import { plainScan } from './plain-scan.ts';

export interface BucketCountChoice {
  scan: ScanPlan;
  /** A fixed-width, epoch-aligned TIMESTAMP_TRUNC part (MICROSECOND..DAY). */
  unit: string;
}

/** The scan and unit `plan` counts by, or null when the rule does not apply. */
export function bucketCountFromTimestamps(plan: AggregatePlan): BucketCountChoice | null {
  const unit = fixedTruncUnit(plan);
  if (unit === null || plan.aggs.length === 0) return null;
  for (const a of plan.aggs) {
    if (a.k !== 'agg' || a.agg.name.toUpperCase() !== 'COUNT' || !a.star || a.distinct) return null;
  }
  const scan = plainScan(plan.input);
  if (scan === null) return null;
  const key = plan.keys[0];
  const o = key?.k === 'call' ? originOf(key.args[0]!) : null;
  if (!o || o.scan !== scan || o.element || o.path.length !== 1 || o.path[0] !== 'timestamp') return null;
  return { scan, unit };
}
