// Unordered scans as column runs: the rows an unordered scan returns, in the same order (segment by
// segment, each read by its cursor), handed over as row indices into each segment's own columns with
// its hot id and timestamp columns. Nothing is copied per row, so a vectorised aggregate reads the
// segment's columns directly. Plain data: typed arrays + row bytes.

import type { ScanSpec } from './types.ts';
import type { RowData } from './row-data.ts';
import { bounds, openCursor, overlaps, segmentCursor, type Cursor, type ScanSnapshot } from './scan.ts';
import type { Segment } from './segment.ts';
import type { TsRead } from './ts-column.ts';

/** Rows sel[0, n) of one segment (indices into its columns, in scan order) that the scan returns. */
export interface RowRun {
  rows: RowData;
  /** The segment's timestamp column (row r's: ts.at(r)). */
  ts: TsRead;
  /** The segment's dictionary-id columns of the requested hot keys, in ScanSpec.hot order. */
  hot: ArrayLike<number>[];
  sel: Int32Array;
  n: number;
  /** Project id → name (0 = null). */
  projectNames: readonly (string | null)[];
  /**
   * Whether scanSnapshot's batch of the same spec ends with this run's last row: runs split where its
   * batches do, so a consumer that orders work per batch can keep that order exactly.
   */
  batchEnd: boolean;
}

/**
 * The rows scanSnapshot(snap, spec) returns for an unordered spec (order 'any'), in its order: sealed
 * segments newest bound first, the open segment where its newest row falls among them, each read
 * backwards through its cursor.
 */
export function* runsOfSnapshot(snap: ScanSnapshot, spec: ScanSpec): Generator<RowRun, void, undefined> {
  if (spec.order !== 'any') throw new Error('internal: column runs are read in any order only');
  if (snap.pid === -1) return;
  const b = bounds(spec, snap.watermark);
  if (b.lo > b.hi || (b.lo === b.hi && (b.loStrict || b.hiStrict))) return;
  const afterSeq = spec.afterSeq ?? -Infinity;
  const hotCols = (spec.hot ?? []).map((k) => {
    const i = snap.hotIndex.get(k);
    if (i === undefined) throw new Error(`scan: unknown hot key "${k}"`);
    return i;
  });
  const pending: Segment[] = snap.segments.filter((seg) => seg.maxSeq > afterSeq && overlaps(seg, b) && (snap.pid === undefined || seg.runs.has(snap.pid)));
  // As scanSnapshot orders them for an unordered scan: newest bound first (a stable sort).
  pending.sort((x, y) => y.maxTs - x.maxTs);
  let oc = openCursor(snap.open, snap.pid, b, -1);
  const ocKey = oc === null ? -Infinity : oc.ts();
  // scanSnapshot's batch sizes: the first one, then doubling up to the largest.
  const maxSize = Math.max(1, Math.floor(spec.batchSize ?? 1024));
  let size = Math.max(1, Math.min(maxSize, Math.floor(spec.firstBatchSize ?? maxSize)));
  let filled = 0;
  for (let pi = 0; ; ) {
    let c: Cursor | null;
    if (oc !== null && ocKey >= (pi < pending.length ? pending[pi]!.maxTs : -Infinity)) { c = oc; oc = null; }
    else if (pi < pending.length) c = segmentCursor(pending[pi++]!, snap.pid, b, -1, true);
    else break;
    if (c === null) continue;
    const rows = c.rows;
    const hot = hotCols.map((h) => rows.hot[h]!);
    while (c.pos !== c.end) {
      const sel = new Int32Array(Math.min(size - filled, Math.abs(c.end - c.pos)));
      const n = fill(c, sel, afterSeq, snap.maxSeq);
      filled += n;
      const batchEnd = filled === size;
      if (batchEnd) { filled = 0; size = Math.min(maxSize, size * 2); }
      if (n > 0) yield { rows, ts: rows.ts, hot, sel, n, projectNames: snap.projectNames, batchEnd };
    }
  }
}

/** Advances the cursor until sel is full or it ends, keeping the rows inside the sequence window. */
function fill(c: Cursor, sel: Int32Array, afterSeq: number, maxSeq: number): number {
  const { perm, end, step } = c;
  const { seq, seqBase } = c.rows;
  let pos = c.pos, n = 0;
  for (; n < sel.length && pos !== end; pos += step) {
    const r = perm === null ? pos : perm[pos]!;
    const s = seqBase + seq[r]!;
    if (s > afterSeq && s <= maxSeq) sel[n++] = r;
  }
  c.pos = pos;
  return n;
}
