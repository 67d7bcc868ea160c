// Counts the rows a scan would return without reading them: per sealed segment a binary search over the
// project's run (or the ts order) gives the range, and only a segment that straddles the snapshot's
// sequence bounds is checked row by row; the open segment is counted by a loop over its columns.

import type { ScanSpec } from './types.ts';
import { bounds, overlaps, segmentRange, type Bounds, type ScanSnapshot } from './scan.ts';
import type { Segment } from './segment.ts';
import type { OpenSegment } from './open-segment.ts';

/** How many rows scanSnapshot(snap, spec) yields (order and batch sizes do not matter). */
export function countSnapshot(snap: ScanSnapshot, spec: ScanSpec): number {
  if (snap.pid === -1) return 0;
  const b = bounds(spec, snap.watermark);
  if (b.lo > b.hi || (b.lo === b.hi && (b.loStrict || b.hiStrict))) return 0;
  const afterSeq = spec.afterSeq ?? -Infinity;
  let n = 0;
  for (const seg of snap.segments) {
    if (seg.maxSeq <= afterSeq || !overlaps(seg, b)) continue;
    n += segmentCount(seg, snap.pid, b, afterSeq, snap.maxSeq);
  }
  return n + openCount(snap.open, snap.pid, b, afterSeq, snap.maxSeq);
}

function segmentCount(seg: Segment, pid: number | undefined, b: Bounds, afterSeq: number, maxSeq: number): number {
  const r = segmentRange(seg, pid, b, true);
  if (r === null) return 0;
  const { from, to, perm } = r;
  if (seg.minSeq > afterSeq && seg.maxSeq <= maxSeq) return to - from;
  // The segment holds rows outside the snapshot's sequence bounds: check each row of the range.
  const { seq, seqBase } = seg;
  let n = 0;
  for (let p = from; p < to; p++) {
    const s = seqBase + seq[perm === null ? p : perm[p]!]!;
    if (s > afterSeq && s <= maxSeq) n++;
  }
  return n;
}

function openCount(open: OpenSegment, pid: number | undefined, b: Bounds, afterSeq: number, maxSeq: number): number {
  const { seq, seqBase } = open;
  const ts = open.ts.v;
  const opid = open.pid;
  let n = 0;
  for (let r = 0; r < ts.length; r++) {
    if (pid !== undefined && opid[r] !== pid) continue;
    const t = ts[r]!;
    if (t < b.lo || (b.loStrict && t === b.lo) || t > b.hi || (b.hiStrict && t === b.hi)) continue;
    const s = seqBase + seq[r]!;
    if (s > afterSeq && s <= maxSeq) n++;
  }
  return n;
}
