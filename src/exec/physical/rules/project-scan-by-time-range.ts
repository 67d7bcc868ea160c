// Rule ProjectScanByTimeRange: a scan restricted to one project and/or a time range (bounds the logical
// pushdown placed on it) reads only that project's rows in the segments overlapping the range.

import type { ScanPlan } from '../../../plan/bound.ts';

/** Whether the scan reads by project or time range (the store's indexes), not everything. */
export function projectScanByTimeRange(scan: ScanPlan): boolean {
  return scan.project !== undefined || scan.minTs !== undefined || scan.maxTs !== undefined;
}
