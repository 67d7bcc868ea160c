// Unordered scans as column runs: for each segment of a snapshot, the row indices (in storage order) that
// a scan would return, with the segment's own hot id and timestamp columns. Nothing is copied per row,
// so a vectorised aggregate reads the segment's columns directly. Plain data: typed arrays + row bytes.

import type { ScanSpec } from './types.ts';
import type { RowData } from './row-data.ts';
import { bounds, inside, overlaps, type Bounds, type ScanSnapshot } from './scan.ts';

/** Rows sel[0, n) of one segment (indices into its columns, ascending) that the scan returns. */
export interface RowRun {
  rows: RowData;
  /** The segment's timestamp column. */
  ts: ArrayLike<number>;
  /** The segment's dictionary-id columns of the requested hot keys, in ScanSpec.hot order. */
  hot: ArrayLike<number>[];
  sel: Int32Array;
  n: number;
  /** Project id → name (0 = null). */
  projectNames: readonly (string | null)[];
}

/** Most rows one run holds (a consumer yields between runs). */
const RUN_ROWS = 16_384;

/** What scanSnapshot(snap, spec) returns, in any order, as runs of rows of one segment. */
export function* runsOfSnapshot(snap: ScanSnapshot, spec: ScanSpec): Generator<RowRun, void, undefined> {
  if (snap.pid === -1) return;
  const b = bounds(spec, snap.watermark);
  if (b.lo > b.hi || (b.lo === b.hi && (b.loStrict || b.hiStrict))) return;
  const afterSeq = spec.afterSeq ?? -Infinity;
  const hotCols = (spec.hot ?? []).map((k) => {
    const i = snap.hotIndex.get(k);
    if (i === undefined) throw new Error(`scan: unknown hot key "${k}"`);
    return i;
  });
  const parts: { rows: RowData; from: number; to: number; exact: boolean }[] = [];
  for (const seg of snap.segments) {
    if (seg.maxSeq <= afterSeq || !overlaps(seg, b)) continue;
    const seqExact = seg.minSeq > afterSeq && seg.maxSeq <= snap.maxSeq;
    if (snap.pid === undefined) parts.push({ rows: seg, from: 0, to: seg.n, exact: seqExact && inside(seg, b) });
    else {
      const run = seg.runs.get(snap.pid);
      if (run !== undefined) parts.push({ rows: seg, from: run.start, to: run.end, exact: false });
    }
  }
  if (snap.open.n > 0) parts.push({ rows: snap.open, from: 0, to: snap.open.n, exact: false });
  for (const p of parts) {
    for (let at = p.from; at < p.to; at += RUN_ROWS) {
      const end = Math.min(p.to, at + RUN_ROWS);
      const sel = new Int32Array(end - at);
      const n = p.exact ? fillAll(sel, at, end) : fillChecked(sel, p.rows, at, end, b, afterSeq, snap.maxSeq, snap.pid);
      if (n > 0) yield { rows: p.rows, ts: p.rows.ts, hot: hotCols.map((h) => p.rows.hot[h]!), sel, n, projectNames: snap.projectNames };
    }
  }
}

function fillAll(sel: Int32Array, from: number, to: number): number {
  for (let r = from; r < to; r++) sel[r - from] = r;
  return to - from;
}

/** Rows of [from, to) inside the bounds, the sequence window and (when set) of project pid. */
function fillChecked(sel: Int32Array, rows: RowData, from: number, to: number, b: Bounds, afterSeq: number, maxSeq: number, pid: number | undefined): number {
  const { ts, seq, seqBase } = rows;
  const rpid = rows.pid;
  const { lo, hi, loStrict, hiStrict } = b;
  let n = 0;
  for (let r = from; r < to; r++) {
    const t = ts[r]!;
    if (t < lo || t > hi || (loStrict && t === lo) || (hiStrict && t === hi)) continue;
    const s = seqBase + seq[r]!;
    if (s <= afterSeq || s > maxSeq) continue;
    if (pid !== undefined && rpid[r] !== pid) continue;
    sel[n++] = r;
  }
  return n;
}
