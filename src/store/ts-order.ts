// Row indices in ascending timestamp order, ties by index (an open segment's byTs): a scan when rows came
// in order, else an LSD radix sort of the integer µs offsets; a comparator sort only for what radix cannot key.

/** Below this many rows the comparator sort is as fast as setting up the radix passes. */
const RADIX_MIN = 2048;
/** The widest digit per pass: 16 bits (fewer passes over the rows) once the rows outnumber its buckets, else 11. */
const digitLimit = (n: number): number => (n >= 65_536 ? 16 : 11);

function comparatorOrder(ts: ArrayLike<number>, n: number): Uint32Array {
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  return idx.sort((a, b) => ts[a]! - ts[b]! || a - b);
}

/**
 * Indices 0..n-1 of ts[0, n) ordered by (ts, index). Equal to sorting by `ts[a] - ts[b] || a - b`: the radix
 * passes are stable and start from index order, and they run only when every value is an integer whose
 * offset from the minimum fits 52 bits (µs timestamps do), so each key is exact.
 */
export function tsOrder(ts: ArrayLike<number>, n: number): Uint32Array {
  let min = Infinity, max = -Infinity, sorted = true, integral = true;
  for (let i = 0; i < n; i++) {
    const t = ts[i]!;
    if (t < min) min = t;
    if (t > max) max = t;
    if (i > 0 && !(t >= ts[i - 1]!)) sorted = false;
    if (!Number.isInteger(t)) integral = false;
  }
  if (sorted) {
    const idx = new Uint32Array(n);
    for (let i = 0; i < n; i++) idx[i] = i;
    return idx;
  }
  const span = max - min;
  if (n < RADIX_MIN || !integral || !(span < 2 ** 52)) return comparatorOrder(ts, n);
  // Offsets split into 32-bit halves, so each digit is read with integer operations.
  const lo = new Uint32Array(n), hi = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const d = ts[i]! - min;
    lo[i] = d % 4294967296;
    hi[i] = Math.floor(d / 4294967296);
  }
  let src = new Uint32Array(n), dst = new Uint32Array(n);
  for (let i = 0; i < n; i++) src[i] = i;
  const bits = Math.max(1, Math.ceil(Math.log2(span + 1)));
  const passes = Math.ceil(bits / digitLimit(n)), DIGIT_BITS = Math.ceil(bits / passes), BUCKETS = 1 << DIGIT_BITS, MASK = BUCKETS - 1;
  const counts = new Uint32Array(BUCKETS), key = new Uint16Array(n);
  for (let shift = 0; shift < bits; shift += DIGIT_BITS) {
    // Each row's digit of this pass, by row (the counts need no order; the scatter reads it by row).
    if (shift + DIGIT_BITS <= 32) for (let i = 0; i < n; i++) key[i] = (lo[i]! >>> shift) & MASK;
    else if (shift < 32) for (let i = 0; i < n; i++) key[i] = ((lo[i]! >>> shift) | (hi[i]! << (32 - shift))) & MASK;
    else for (let i = 0; i < n; i++) key[i] = (hi[i]! >>> (shift - 32)) & MASK;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[key[i]!]!++;
    for (let b = 0, at = 0; b < BUCKETS; b++) { const c = counts[b]!; counts[b] = at; at += c; }
    for (let i = 0; i < n; i++) { const r = src[i]!; dst[counts[key[r]!]!++] = r; }
    [src, dst] = [dst, src];
  }
  return src;
}
