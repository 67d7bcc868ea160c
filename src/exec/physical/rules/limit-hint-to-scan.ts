// Rule LimitHintToScan: a LIMIT (or the endpoint's row cap) reached through projections only sizes the
// batches of an unordered scan, so a small answer does not read a full batch.

import type { ScanPlan } from '../../../plan/bound.ts';

/** Whether the scan, in storage order, takes its batch size from the row-count hint above it. */
export function limitHintToScan(scan: ScanPlan, hint: number | null): boolean {
  return hint !== null && scan.order === 'any';
}
