// Row indices in ascending timestamp order, ties by index (an open segment's byTs): a scan when rows came
// in order, else the addon's LSD radix sort of the integer µs offsets; a comparator sort for what it cannot key.

import { INGEST_ADDON } from './native-ingest.ts';
import { HUGE_ADVICE_MIN_BYTES, allocBig } from './big-buffer.ts';

/** Below this many rows the comparator sort is as fast as copying the timestamps out for the radix sort. */
const RADIX_MIN = 2048;

function comparatorOrder(ts: ArrayLike<number>, n: number): Uint32Array {
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  return idx.sort((a, b) => ts[a]! - ts[b]! || a - b);
}

/** ts[0, n) as a Float64Array: a whole plain array in one builtin copy (no cold JS loop over every row). */
function float64Of(ts: ArrayLike<number>, n: number): Float64Array {
  if (ts instanceof Float64Array) return ts.subarray(0, n);
  if (Array.isArray(ts) && ts.length === n) return new Float64Array(ts as number[]);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = ts[i]!;
  return out;
}

/**
 * Indices 0..n-1 of ts[0, n) ordered by (ts, index). Equal to sorting by `ts[a] - ts[b] || a - b`: the radix
 * passes (src/native/ts-order.c) are stable and start from index order, and they run only when every value
 * is an integer whose offset from the minimum fits 52 bits (µs timestamps do), so each key is exact.
 */
export function tsOrder(ts: ArrayLike<number>, n: number): Uint32Array {
  if (n >= RADIX_MIN) {
    // Every entry is written (the radix order or the index order): a big one needs no zero-filled pages.
    const big = n * 4 >= HUGE_ADVICE_MIN_BYTES ? allocBig(n * 4) : null;
    const out = big === null ? new Uint32Array(n) : new Uint32Array(big.buffer, big.byteOffset, n);
    return INGEST_ADDON.tsOrder(float64Of(ts, n), out) ? out : comparatorOrder(ts, n);
  }
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) if (!(ts[i]! >= ts[i - 1]!)) sorted = false;
  if (!sorted) return comparatorOrder(ts, n);
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  return idx;
}
