// Binary searches over timestamp columns, directly or through a ts-order permutation.

/** First index in [lo, hi) whose ts (through perm) is >= x. */
export function lowerBoundPerm(ts: ArrayLike<number>, perm: ArrayLike<number>, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[perm[mid]!]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in [lo, hi) whose ts (through perm) is > x. */
export function upperBoundPerm(ts: ArrayLike<number>, perm: ArrayLike<number>, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[perm[mid]!]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function lowerBound(ts: ArrayLike<number>, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function upperBound(ts: ArrayLike<number>, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
