// The row order of a sealed segment built from the open one, without a comparator sort per seal:
// rows arrive mostly in time order, so the (ts, seq) order is usually a scan, and (pid, ts, seq) a stable bucketing of it.

/** Kept rows (ts >= w) in (pid, ts, seq) order, and the new segment's ts permutation (positions in `order` by (ts, seq)). */
export interface SealOrder {
  order: Uint32Array;
  byTs: Uint32Array;
}

/** Rows with ts >= w in (ts, seq) order: a scan when they already are (TimSort, adaptive, otherwise). */
function keptByTs(ts: ArrayLike<number>, seq: ArrayLike<number>, w: number): number[] {
  const keep: number[] = [];
  let sorted = true, prev = -1;
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i]!;
    if (!(t >= w)) continue;
    if (prev >= 0 && (t < ts[prev]! || (t === ts[prev]! && seq[i]! < seq[prev]!))) sorted = false;
    keep.push(i);
    prev = i;
  }
  if (!sorted) keep.sort((a, b) => ts[a]! - ts[b]! || seq[a]! - seq[b]!);
  return keep;
}

/**
 * The same order as sorting by (pid, ts, seq) (seq is unique, so the order is unique): a stable
 * bucketing by pid of the (ts, seq) order, whose positions are also the new segment's ts permutation.
 */
export function sealOrder(ts: ArrayLike<number>, seq: ArrayLike<number>, pid: ArrayLike<number>, w: number): SealOrder {
  const keep = keptByTs(ts, seq, w);
  const n = keep.length;
  const next = new Map<number, number>();
  for (let k = 0; k < n; k++) { const p = pid[keep[k]!]!; next.set(p, (next.get(p) ?? 0) + 1); }
  let at = 0;
  for (const p of [...next.keys()].sort((a, b) => a - b)) { const c = next.get(p)!; next.set(p, at); at += c; }
  const order = new Uint32Array(n), byTs = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    const r = keep[k]!, p = pid[r]!;
    const pos = next.get(p)!;
    next.set(p, pos + 1);
    order[pos] = r;
    byTs[k] = pos;
  }
  return { order, byTs };
}
