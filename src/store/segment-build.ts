// Building sealed segments: sealing the open segment, merging two sealed ones (their ts orders merged
// linearly, blocks referenced rather than recompressed), purging rows below the watermark, dropping projects.

import type { RowData } from './row-data.ts';
import { OpenSegment } from './open-segment.ts';
import { Segment, type Run } from './segment.ts';
import { narrowed, type UintArray } from './narrow.ts';
import { SlabRowsBuilder, type RowBytes, type RowBytesBuilder } from './row-bytes.ts';
import { BlockRowsBuilder } from './row-blocks.ts';
import { sealBlocks } from './seal-blocks.ts';
import type { SealSlabs } from './seal-slabs.ts';
import type { BlockCodec } from './block-codec.ts';
import { sealOrder } from './seal-order.ts';
import { TsColumn } from './ts-column.ts';
import { pickInto, pickTs } from './build-columns.ts';

/**
 * Copies rows into a new sealed segment. `order` lists rows in (pid, ts) order; row r < na is a's row
 * r, otherwise b's row r - na. `byTsOf` returns the ts permutation of the new segment. `codec` null
 * keeps the rows in one uncompressed slab (v1), else in compressed blocks (v2). `sealed`, when given, makes
 * the row bytes of all rows at once (a seal of the open segment: sealBlocks) instead of a builder row by row.
 */
function build(a: RowData, b: RowData | null, na: number, order: Uint32Array, n: number, codec: BlockCodec | null, byTsOf: (ts: Float64Array, seq: UintArray) => Uint32Array, sealed: (() => RowBytes) | null = null): Segment | null {
  if (n === 0) return null;
  const aRows = a instanceof Segment ? a.rows : null, bRows = b instanceof Segment ? b.rows : null;
  const rows = sealed !== null ? null : rowsBuilder(a, b, na, order, n, codec, aRows, bRows);
  // Each column filled by a pass per input (build-columns.ts), not all columns row by row.
  const lenA = na === Infinity ? a.ts.length : na, lenB = b === null ? 0 : b.ts.length;
  const fill = (out: Uint32Array | Float64Array, colA: ArrayLike<number>, colB: ArrayLike<number> | undefined, addA = 0, addB = 0): void => {
    pickInto(out, order, n, 0, lenA, colA, addA);
    if (b !== null) pickInto(out, order, n, na, lenB, colB!, addB);
  };
  const abs = new Float64Array(n);
  fill(abs, a.seq, b?.seq, a.seqBase, b?.seqBase ?? 0);
  let seqLo = Infinity, seqHi = 0;
  for (let i = 0; i < n; i++) { const s = abs[i]!; if (s < seqLo) seqLo = s; if (s > seqHi) seqHi = s; }
  if (seqHi - seqLo > 0xffffffff) throw new Error('internal: a segment spans more than 2^32 sequence numbers');
  // Project and hot id columns are narrowed to their widest value (scans gather them with one loop per
  // array kind, gather.ts); ts and seq, read per row in scan loops, stay one kind each.
  const ts = new Float64Array(n), seq = new Uint32Array(n), pid = new Uint32Array(n);
  for (let i = 0; i < n; i++) seq[i] = abs[i]! - seqLo;
  pickTs(ts, order, n, 0, lenA, a.ts);
  if (b !== null) pickTs(ts, order, n, na, lenB, b.ts);
  fill(pid, a.pid, b?.pid);
  const hot = a.hot.map((col, h) => { const out = new Uint32Array(n); fill(out, col, b?.hot[h]); return out; });
  const shape = new Uint32Array(n);
  fill(shape, a.shape, b?.shape);
  if (rows !== null) {
    for (let i = 0; i < n; i++) {
      const r = order[i]!;
      if (r < na) rows.add(a, aRows, r);
      else rows.add(b!, bRows, r - na);
    }
  }
  // ts is built plain (the ts order is sorted on it), then held frame-of-reference encoded.
  const byTs = byTsOf(ts, seq);
  return new Segment(TsColumn.of(ts), seq, seqLo, narrowed(pid), rows === null ? sealed!() : rows.finish(), hot.map(narrowed), byTs, runsOf(pid), narrowed(shape));
}

/** The row-bytes builder of a merge or purge, after its first pass (v1: the slab's size; v2: which blocks stay whole). */
function rowsBuilder(a: RowData, b: RowData | null, na: number, order: Uint32Array, n: number, codec: BlockCodec | null, aRows: RowBytes | null, bRows: RowBytes | null): RowBytesBuilder {
  let total = 0;
  const blocks = codec === null ? null : new BlockRowsBuilder(n, codec);
  for (let i = 0; i < n; i++) {
    const r = order[i]!;
    const src = r < na ? a : b!, rr = r < na ? r : r - na;
    if (blocks === null) total += src.jsonBytesOf(rr) + src.extraBytesOf(rr);
    else blocks.count(r < na ? aRows : bRows, rr, src);
  }
  return blocks ?? new SlabRowsBuilder(n, total);
}

/** The rows of each project: pid is sorted, so each project's rows are one run. */
function runsOf(pid: Uint32Array): Map<number, Run> {
  const runs = new Map<number, Run>();
  const n = pid.length;
  for (let i = 0; i < n;) {
    const p = pid[i]!;
    let j = i + 1;
    while (j < n && pid[j] === p) j++;
    runs.set(p, { start: i, end: j });
    i = j;
  }
  return runs;
}

function sortByTs(ts: Float64Array, seq: UintArray): Uint32Array {
  const idx = new Uint32Array(ts.length);
  for (let i = 0; i < idx.length; i++) idx[i] = i;
  return idx.sort((a, b) => ts[a]! - ts[b]! || seq[a]! - seq[b]!);
}

/**
 * Seals the open segment's rows with ts >= w into a sorted segment (null when none remain). With a codec
 * and `slabs`, the rows are gathered into blocks of a pooled slab at once (sealBlocks).
 */
export function sealOpen(open: OpenSegment, w: number, codec: BlockCodec | null = null, slabs: SealSlabs | null = null): Segment | null {
  const { order, byTs } = sealOrder(open.ts.v, open.seq, open.pid, w);
  const sealed = codec !== null && slabs !== null ? () => sealBlocks(open, order, codec, slabs) : null;
  return build(open, null, Infinity, order, order.length, codec, () => byTs, sealed);
}

/** Open rows with ts >= w, as a fresh open segment (the old arrays stay intact for scans in flight). */
export function purgeOpen(open: OpenSegment, w: number): OpenSegment {
  const out = new OpenSegment(open.hot.length, open.bytes);
  const hot: number[] = new Array<number>(open.hot.length);
  for (let i = 0; i < open.n; i++) {
    if (open.ts.v[i]! < w) continue;
    for (let h = 0; h < hot.length; h++) hot[h] = open.hot[h]![i]!;
    out.appendFrom(open, i, hot);
  }
  return out;
}

/**
 * Merges two sealed segments (b may be null: then a is only purged) into one, keeping rows with
 * ts >= w, in (pid, ts) order; the ts permutation is merged too, so the whole thing is linear.
 */
export function mergeSegments(a: Segment, b: Segment | null, w: number, codec: BlockCodec | null = null): Segment | null {
  const na = a.n, nb = b === null ? 0 : b.n;
  // Rows [0, na) are a's, [na, na + nb) are b's.
  const newIndex = new Int32Array(na + nb).fill(-1);
  const order = new Uint32Array(na + nb);
  let n = 0, i = 0, j = 0;
  while (i < na || j < nb) {
    let takeA: boolean;
    if (i >= na) takeA = false;
    else if (j >= nb) takeA = true;
    else {
      const pa = a.pid[i]!, pb = b!.pid[j]!;
      takeA = pa < pb || (pa === pb && a.ts.at(i) <= b!.ts.at(j));
    }
    const r = takeA ? i++ : na + j++;
    if ((r < na ? a.ts.at(r) : b!.ts.at(r - na)) < w) continue;
    newIndex[r] = n;
    order[n++] = r;
  }
  return build(a, b, na, order, n, codec, () => {
    const byTs = new Uint32Array(n);
    let k = 0, x = 0, y = 0;
    while (x < na || y < nb) {
      let r: number;
      if (x >= na) r = na + b!.byTs[y++]!;
      else if (y >= nb) r = a.byTs[x++]!;
      else r = a.ts.at(a.byTs[x]!) <= b!.ts.at(b!.byTs[y]!) ? a.byTs[x++]! : na + b!.byTs[y++]!;
      const ni = newIndex[r]!;
      if (ni >= 0) byTs[k++] = ni;
    }
    return byTs;
  });
}

/** The segment without the rows of projects `pids` (null when none remain); others keep their order. */
export function withoutProjects(seg: Segment, pids: ReadonlySet<number>, codec: BlockCodec | null = null): Segment | null {
  const order: number[] = [];
  for (let i = 0; i < seg.n; i++) if (!pids.has(seg.pid[i]!)) order.push(i);
  if (order.length === seg.n) return seg;
  return build(seg, null, Infinity, Uint32Array.from(order), order.length, codec, sortByTs);
}

/** The open rows not of projects `pids`, as a fresh open segment. */
export function openWithoutProjects(open: OpenSegment, pids: ReadonlySet<number>): OpenSegment {
  const out = new OpenSegment(open.hot.length, open.bytes);
  const hot: number[] = new Array<number>(open.hot.length);
  for (let i = 0; i < open.n; i++) {
    if (pids.has(open.pid[i]!)) continue;
    for (let h = 0; h < hot.length; h++) hot[h] = open.hot[h]![i]!;
    out.appendFrom(open, i, hot);
  }
  return out;
}
