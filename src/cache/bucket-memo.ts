// A bucket-cache answer kept as bytes, and whether it still holds: nothing it depended on (the
// source's newest sequence number and eviction watermark, a moving window start) has changed.

import type { ExecuteResult } from '../engine/run-request.ts';
import type { SourceClock } from './bucket-cache.ts';

/**
 * A bucket-cache answer kept as bytes, with what it depended on: the source's newest sequence number
 * and eviction watermark, and, when its window start moves with the clock, how far it may move.
 */
export interface BucketMemo {
  result: ExecuteResult;
  source: SourceClock;
  seq: number;
  watermark: number;
  /** µs when computed; the clock it was planned at. */
  computedAt: number;
  /** Window start minus the planning clock, when the window start is now + a fixed offset; else null. */
  offset: number | null;
  /** Every counted row is at or after this (µs). */
  firstCounted: number;
}

/** Whether the memo is still exactly what the query returns at `now`. */
export function memoHolds(m: BucketMemo, now: number): boolean {
  if (now < m.computedAt || m.source.lastSeq() !== m.seq || m.source.watermark() !== m.watermark) return false;
  // The window start only moves forward; strictly below the first counted row, nothing counted leaves it.
  return m.offset === null || now + m.offset < m.firstCounted;
}
