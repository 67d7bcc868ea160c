// Rule TopNByTimeFromSortedSegments: a LIMIT (or the endpoint's row cap) over a scan already ordered by
// timestamp (the sort it replaced) reads only that many rows, newest (or oldest) segments first.

import type { ScanPlan } from '../../../plan/bound.ts';

/** Whether the scan, given a row-count hint from above, serves a top-N by time. */
export function topNByTimeFromSortedSegments(scan: ScanPlan, hint: number | null): boolean {
  return hint !== null && scan.order !== 'any';
}
