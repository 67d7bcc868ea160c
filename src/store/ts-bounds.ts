// Binary searches over timestamp columns, directly or through a ts-order permutation.

import type { TsRead } from './ts-column.ts';

/** First index in [lo, hi) whose ts (through perm) is >= x. */
export function lowerBoundPerm(ts: TsRead, perm: ArrayLike<number>, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts.at(perm[mid]!) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in [lo, hi) whose ts (through perm) is > x. */
export function upperBoundPerm(ts: TsRead, perm: ArrayLike<number>, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts.at(perm[mid]!) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function lowerBound(ts: TsRead, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts.at(mid) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function upperBound(ts: TsRead, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts.at(mid) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
