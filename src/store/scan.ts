// Scans one source: prunes sealed segments by time, project and sequence bounds, binary-searches the
// time range inside each, and merges the survivors lazily (a segment joins the heap only once it
// could hold the next row), so the newest 100 rows of a project touch only the newest segments.

import type { RowText, ScanBatch, ScanSpec } from './types.ts';
import { lowerBound, lowerBoundPerm, upperBound, upperBoundPerm } from './ts-bounds.ts';
import type { OpenSegment } from './open-segment.ts';
import type { RowData } from './row-data.ts';
import type { Segment } from './segment.ts';
import { gather, gatherNames } from './gather.ts';

/** What a scan needs from its SourceStore, captured when the scan starts. */
export interface ScanSnapshot {
  segments: readonly Segment[];
  open: OpenSegment;
  /** Visible rows have ts >= watermark. */
  watermark: number;
  /** Rows stored later (seq above this) are not part of the snapshot. */
  maxSeq: number;
  /** Project id → name (0 = null); append-only, so reading it later is safe. */
  projectNames: readonly (string | null)[];
  /** Project id of spec.project: undefined = all rows; -1 = a project never seen. */
  pid: number | undefined;
  /** Index in the rows' hot columns of each requested hot key. */
  hotIndex: ReadonlyMap<string, number>;
}

/** Reads positions [pos .. end) (step +1) or (end .. pos] (step -1) of a row range. */
export class Cursor {
  constructor(
    readonly rows: RowData,
    readonly perm: ArrayLike<number> | null,
    public pos: number,
    readonly end: number,
    readonly step: 1 | -1,
  ) {}
  row(): number {
    return this.perm === null ? this.pos : this.perm[this.pos]!;
  }
  ts(): number {
    return this.rows.ts.at(this.row());
  }
}

export interface Bounds {
  /** Inclusive lower bound (already raised to the watermark) and its strictness. */
  lo: number;
  loStrict: boolean;
  hi: number;
  hiStrict: boolean;
}

export function bounds(spec: ScanSpec, watermark: number): Bounds {
  let lo = -Infinity, loStrict = false;
  if (spec.minTs !== undefined) { lo = spec.minTs; loStrict = spec.minInclusive === false; }
  if (watermark > lo || (watermark === lo && !loStrict)) { lo = watermark; loStrict = false; }
  let hi = Infinity, hiStrict = false;
  if (spec.maxTs !== undefined) { hi = spec.maxTs; hiStrict = spec.maxInclusive === false; }
  return { lo, loStrict, hi, hiStrict };
}

export function overlaps(seg: Segment, b: Bounds): boolean {
  if (seg.maxTs < b.lo || (b.loStrict && seg.maxTs === b.lo)) return false;
  if (seg.minTs > b.hi || (b.hiStrict && seg.minTs === b.hi)) return false;
  return true;
}

/**
 * Positions [from, to) of seg's rows within the bounds (and of project pid, when given): in the
 * project's run, in ts order through `perm`, or (anyOrder, every row inside) in storage order; null when none.
 */
export function segmentRange(seg: Segment, pid: number | undefined, b: Bounds, anyOrder: boolean): { from: number; to: number; perm: Uint32Array | null } | null {
  let from: number, to: number, perm: Uint32Array | null = null;
  if (pid === undefined && anyOrder && inside(seg, b)) {
    // Every row qualifies and order does not matter: read in storage order (sequential memory, no permutation).
    from = 0;
    to = seg.n;
  } else if (pid === undefined) {
    perm = seg.byTs;
    from = (b.loStrict ? upperBoundPerm : lowerBoundPerm)(seg.ts, perm, 0, seg.n, b.lo);
    to = (b.hiStrict ? lowerBoundPerm : upperBoundPerm)(seg.ts, perm, from, seg.n, b.hi);
  } else {
    const run = seg.runs.get(pid);
    if (run === undefined) return null;
    from = (b.loStrict ? upperBound : lowerBound)(seg.ts, run.start, run.end, b.lo);
    to = (b.hiStrict ? lowerBound : upperBound)(seg.ts, from, run.end, b.hi);
  }
  return from < to ? { from, to, perm } : null;
}

export function segmentCursor(seg: Segment, pid: number | undefined, b: Bounds, step: 1 | -1, anyOrder: boolean): Cursor | null {
  const r = segmentRange(seg, pid, b, anyOrder);
  if (r === null) return null;
  return step === 1 ? new Cursor(seg, r.perm, r.from, r.to, 1) : new Cursor(seg, r.perm, r.to - 1, r.from - 1, -1);
}

/** Is every row of seg within the bounds? */
export function inside(seg: Segment, b: Bounds): boolean {
  const aboveLo = b.loStrict ? seg.minTs > b.lo : seg.minTs >= b.lo;
  const belowHi = b.hiStrict ? seg.maxTs < b.hi : seg.maxTs <= b.hi;
  return aboveLo && belowHi;
}

export function openCursor(open: OpenSegment, pid: number | undefined, b: Bounds, step: 1 | -1): Cursor | null {
  const { ts } = open;
  const sorted = open.byTs();
  const perm = pid === undefined ? sorted : projectByTs(open, sorted, pid);
  const lo = (b.loStrict ? upperBoundPerm : lowerBoundPerm)(ts, perm, 0, perm.length, b.lo);
  const hi = (b.hiStrict ? lowerBoundPerm : upperBoundPerm)(ts, perm, lo, perm.length, b.hi);
  if (lo >= hi) return null;
  return step === 1 ? new Cursor(open, perm, lo, hi, 1) : new Cursor(open, perm, hi - 1, lo - 1, -1);
}

/**
 * Per ts order of an open segment (byTs() makes a new one whenever rows were added), the rows of each
 * project asked for, in that order: a query of one project binary-searches them instead of filtering
 * every open row (and allocating their list) on each request. Together they hold at most one entry per row.
 */
const projectRows = new WeakMap<Uint32Array, Map<number, Uint32Array>>();

function projectByTs(open: OpenSegment, sorted: Uint32Array, pid: number): Uint32Array {
  let byPid = projectRows.get(sorted);
  if (byPid === undefined) projectRows.set(sorted, (byPid = new Map()));
  let rows = byPid.get(pid);
  if (rows === undefined) {
    const pids = open.pid;
    let n = 0;
    for (let i = 0; i < sorted.length; i++) if (pids[sorted[i]!] === pid) n++;
    rows = new Uint32Array(n);
    for (let i = 0, k = 0; k < n; i++) if (pids[sorted[i]!] === pid) rows[k++] = sorted[i]!;
    byPid.set(pid, rows);
  }
  return rows;
}

/** Max-heap of cursors by key = dir * ts (dir 1 for newest first, -1 for oldest first). */
class CursorHeap {
  readonly items: Cursor[] = [];
  constructor(private readonly dir: number) {}
  key(c: Cursor): number {
    return this.dir * c.ts();
  }
  get size(): number {
    return this.items.length;
  }
  push(c: Cursor): void {
    const a = this.items;
    a.push(c);
    let i = a.length - 1;
    const k = this.key(c);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.key(a[p]!) >= k) break;
      a[i] = a[p]!;
      i = p;
    }
    a[i] = c;
  }
  /** Key of the best cursor other than the top (-Infinity when none). */
  secondKey(): number {
    const a = this.items;
    if (a.length < 2) return -Infinity;
    const k1 = this.key(a[1]!);
    return a.length < 3 ? k1 : Math.max(k1, this.key(a[2]!));
  }
  /** Restores the heap after the top cursor advanced (or drops it when exhausted). */
  fixTop(exhausted: boolean): void {
    const a = this.items;
    let c = a[0]!;
    if (exhausted) {
      const last = a.pop()!;
      if (a.length === 0) return;
      c = last;
    }
    const k = this.key(c);
    const n = a.length;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const best = r < n && this.key(a[r]!) > this.key(a[l]!) ? r : l;
      if (this.key(a[best]!) <= k) break;
      a[i] = a[best]!;
      i = best;
    }
    a[i] = c;
  }
}

/** An empty batch of `size` rows, and its hot id columns in `hotKeys` order (the ones the batch maps). */
function newBatch(size: number, hotKeys: readonly string[]): [ScanBatch, Uint32Array[]] {
  const cols = hotKeys.map(() => new Uint32Array(size));
  const hot = new Map<string, Uint32Array>();
  hotKeys.forEach((k, h) => hot.set(k, cols[h]!)); // h < cols.length
  return [{
    n: 0,
    ts: new Float64Array(size),
    seq: new Float64Array(size),
    rows: new Array<RowText>(size),
    idx: new Uint32Array(size),
    project: new Array<string | null>(size),
    hot,
  }, cols];
}

/** Sets the project and the hot ids of batch rows [from, batch.n), all read from `rows`. */
function fillColumns(batch: ScanBatch, from: number, rows: RowData, names: readonly (string | null)[], hotCols: readonly number[], hotOut: Uint32Array[]): void {
  const to = batch.n;
  if (from >= to) return;
  gatherNames(rows.pid, batch.idx, from, to, names, batch.project);
  for (let h = 0; h < hotCols.length; h++) gather(rows.hot[hotCols[h]!]!, batch.idx, from, to, hotOut[h]!);
}

/** Rows of a snapshot matching spec, in batches of spec.batchSize (1024 by default), the first ones smaller when spec.firstBatchSize asks. */
export function* scanSnapshot(snap: ScanSnapshot, spec: ScanSpec): Generator<ScanBatch, void, undefined> {
  if (snap.pid === -1) return;
  const maxSize = Math.max(1, Math.floor(spec.batchSize ?? 1024));
  let size = Math.max(1, Math.min(maxSize, Math.floor(spec.firstBatchSize ?? maxSize)));
  const b = bounds(spec, snap.watermark);
  if (b.lo > b.hi || (b.lo === b.hi && (b.loStrict || b.hiStrict))) return;
  const afterSeq = spec.afterSeq ?? -Infinity;
  const maxSeq = snap.maxSeq;
  const pid = snap.pid;
  const step: 1 | -1 = spec.order === 'asc' ? 1 : -1;
  const dir = -step;

  const pending: Segment[] = [];
  for (const seg of snap.segments) {
    if (seg.maxSeq <= afterSeq || !overlaps(seg, b)) continue;
    if (pid !== undefined && !seg.runs.has(pid)) continue;
    pending.push(seg);
  }
  // Best bound first: newest maxTs for desc scans, oldest minTs for asc scans.
  const boundKey = (s: Segment): number => (dir === 1 ? s.maxTs : -s.minTs);
  pending.sort((x, y) => boundKey(y) - boundKey(x));

  const hotKeys = spec.hot ?? [];
  const hotCols = hotKeys.map((k) => {
    const i = snap.hotIndex.get(k);
    if (i === undefined) throw new Error(`scan: unknown hot key "${k}"`);
    return i;
  });
  const names = snap.projectNames;
  const heap = new CursorHeap(dir);
  // The open segment's cursor waits its turn like a sealed segment, keyed by its first row.
  let oc = openCursor(snap.open, pid, b, step);
  const ocKey = oc === null ? -Infinity : heap.key(oc);
  const merge = spec.order !== 'any';

  let [batch, hotOut] = newBatch(size, hotKeys);
  let pi = 0;
  for (;;) {
    // Admit cursors whose best row could come before the heap's best (all of them at once only when needed).
    for (;;) {
      const pb = pi < pending.length ? boundKey(pending[pi]!) : -Infinity;
      const topKey = heap.size === 0 ? Infinity : heap.key(heap.items[0]!);
      if (oc !== null && ocKey >= pb && (heap.size === 0 || (merge && ocKey > topKey))) {
        heap.push(oc);
        oc = null;
      } else if (pi < pending.length && (heap.size === 0 || (merge && pb > topKey))) {
        const c = segmentCursor(pending[pi++]!, pid, b, step, !merge);
        if (c !== null) heap.push(c);
      } else break;
    }
    if (heap.size === 0) break;
    const c = heap.items[0]!;
    const limit = merge ? Math.max(heap.secondKey(), pi < pending.length ? boundKey(pending[pi]!) : -Infinity, oc === null ? -Infinity : ocKey) : -Infinity;
    const rows = c.rows, perm = c.perm, rts = rows.ts, rseq = rows.seq, sb = rows.seqBase, end = c.end, st = c.step;
    let pos = c.pos;
    // Batch rows [from, n) come from this cursor: their project and hot ids are gathered per column.
    let from = batch.n;
    do {
      const r = perm === null ? pos : perm[pos]!;
      pos += st;
      const s = sb + rseq[r]!;
      if (s <= afterSeq || s > maxSeq) continue;
      const n = batch.n;
      batch.ts[n] = rts.at(r);
      batch.seq[n] = s;
      batch.rows[n] = rows;
      batch.idx[n] = r;
      batch.n = n + 1;
      if (batch.n === size) {
        c.pos = pos;
        fillColumns(batch, from, rows, names, hotCols, hotOut);
        yield batch;
        size = Math.min(maxSize, size * 2);
        [batch, hotOut] = newBatch(size, hotKeys);
        from = 0;
      }
    } while (pos !== end && dir * rts.at(perm === null ? pos : perm[pos]!) >= limit);
    fillColumns(batch, from, rows, names, hotCols, hotOut);
    c.pos = pos;
    heap.fixTop(pos === end);
  }
  if (batch.n > 0) yield batch;
}
