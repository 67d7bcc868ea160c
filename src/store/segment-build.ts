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
import { TsColumn, type TsRead } from './ts-column.ts';
import { pickInto, pickTs, scatterInto, scatterTs } from './build-columns.ts';

/**
 * One input's columns in one plain object shape, whichever kind of segment it is: build reads these, so its
 * optimised code sees one shape where reading open and sealed segments (getters against fields) made V8 drop
 * and recompile the whole of it each time a seal, a merge or a purge brought a kind it had not seen (10 compiles,
 * ~0.65 s of TurboFan time in the demo load: bench/INGEST.md round 18).
 */
interface InputColumns {
  ts: TsRead;
  seq: ArrayLike<number>;
  seqBase: number;
  pid: ArrayLike<number>;
  hot: readonly ArrayLike<number>[];
  shape: ArrayLike<number>;
}

function columnsOf(d: RowData): InputColumns {
  return { ts: d.ts, seq: d.seq, seqBase: d.seqBase, pid: d.pid, hot: d.hot, shape: d.shape };
}

/**
 * Copies rows into a new sealed segment. Row i of it is row local[i] of input which[i] (which null: of
 * inputs[0]); rows come in (pid, ts) order. `byTsOf` returns the ts permutation of the new segment. `codec`
 * null keeps the rows in one uncompressed slab (v1), else in compressed blocks (v2). `sealed`, when given,
 * makes the row bytes of all rows at once (a seal of the open segment: sealBlocks) instead of a builder row by row.
 */
function build(inputs: readonly RowData[], which: Uint8Array | null, local: Uint32Array, n: number, codec: BlockCodec | null, byTsOf: (ts: Float64Array, seq: UintArray) => Uint32Array, sealed: (() => RowBytes) | null = null): Segment | null {
  if (n === 0) return null;
  const cols = inputs.map(columnsOf);
  const rowsOf = inputs.map((d) => (d instanceof Segment ? d.rows : null));
  const rows = sealed !== null ? null : rowsBuilder(inputs, rowsOf, which, local, n, codec);
  // Each column filled by a pass per input (build-columns.ts), not all columns row by row: one input's rows
  // in output order (pickInto), or each input's rows scattered to where they land (scatterInto).
  const lists = which === null ? null : inputLists(inputs.length, which, local, n);
  const fill = (out: Uint32Array | Float64Array, colOf: (c: InputColumns) => ArrayLike<number>, addOf?: (c: InputColumns) => number): void => {
    if (lists === null) { pickInto(out, local, n, 0, cols[0]!.ts.length, colOf(cols[0]!), addOf?.(cols[0]!) ?? 0); return; }
    for (let j = 0; j < cols.length; j++) scatterInto(out, lists.pos[j]!, lists.loc[j]!, colOf(cols[j]!), addOf?.(cols[j]!) ?? 0);
  };
  const abs = new Float64Array(n);
  fill(abs, (c) => c.seq, (c) => c.seqBase);
  let seqLo = Infinity, seqHi = 0;
  for (let i = 0; i < n; i++) { const s = abs[i]!; if (s < seqLo) seqLo = s; if (s > seqHi) seqHi = s; }
  if (seqHi - seqLo > 0xffffffff) throw new Error('internal: a segment spans more than 2^32 sequence numbers');
  // Project and hot id columns are narrowed to their widest value (scans gather them with one loop per
  // array kind, gather.ts); ts and seq, read per row in scan loops, stay one kind each.
  const ts = new Float64Array(n), seq = new Uint32Array(n), pid = new Uint32Array(n);
  for (let i = 0; i < n; i++) seq[i] = abs[i]! - seqLo;
  if (lists === null) pickTs(ts, local, n, 0, cols[0]!.ts.length, cols[0]!.ts);
  else for (let j = 0; j < cols.length; j++) scatterTs(ts, lists.pos[j]!, lists.loc[j]!, cols[j]!.ts);
  fill(pid, (c) => c.pid);
  // Plain loops, not map: each hot column's kind differs, and map's inlined callback saw them all.
  const hotCount = cols[0]!.hot.length;
  const hot: UintArray[] = [];
  for (let h = 0; h < hotCount; h++) {
    const out = new Uint32Array(n);
    fill(out, (c) => c.hot[h]!);
    hot.push(narrowed(out));
  }
  const shape = new Uint32Array(n);
  fill(shape, (c) => c.shape);
  if (rows !== null) addRows(rows, inputs, rowsOf, which, local, n);
  // ts is built plain (the ts order is sorted on it), then held frame-of-reference encoded.
  const byTs = byTsOf(ts, seq);
  return new Segment(TsColumn.of(ts), seq, seqLo, narrowed(pid), rows === null ? sealed!() : rows.finish(), hot, byTs, runsOf(pid), narrowed(shape));
}

/** Row i of the new segment's bytes: row local[i] of input which[i] (its own function: the builders are two classes). */
function addRows(rows: RowBytesBuilder, inputs: readonly RowData[], rowsOf: readonly (RowBytes | null)[], which: Uint8Array | null, local: Uint32Array, n: number): void {
  for (let i = 0; i < n; i++) {
    const j = which === null ? 0 : which[i]!;
    rows.add(inputs[j]!, rowsOf[j]!, local[i]!);
  }
}

/** Per input j, the output positions its rows land at (pos[j]) and which of its rows they are (loc[j]), in output order. */
function inputLists(k: number, which: Uint8Array, local: Uint32Array, n: number): { pos: Uint32Array[]; loc: Uint32Array[] } {
  const count = new Uint32Array(k);
  for (let i = 0; i < n; i++) count[which[i]!]!++;
  const pos = Array.from(count, (c) => new Uint32Array(c)), loc = Array.from(count, (c) => new Uint32Array(c));
  count.fill(0);
  for (let i = 0; i < n; i++) {
    const j = which[i]!, t = count[j]!++;
    pos[j]![t] = i;
    loc[j]![t] = local[i]!;
  }
  return { pos, loc };
}

/** The row-bytes builder of a merge or purge, after its first pass (v1: the slab's size; v2: which blocks stay whole). */
function rowsBuilder(inputs: readonly RowData[], rowsOf: readonly (RowBytes | null)[], which: Uint8Array | null, local: Uint32Array, n: number, codec: BlockCodec | null): RowBytesBuilder {
  let total = 0;
  const blocks = codec === null ? null : new BlockRowsBuilder(n, codec);
  for (let i = 0; i < n; i++) {
    const j = which === null ? 0 : which[i]!;
    const src = inputs[j]!, rr = local[i]!;
    if (blocks === null) total += src.jsonBytesOf(rr) + src.extraBytesOf(rr);
    else blocks.count(rowsOf[j]!, rr, src);
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
  return build([open], null, order, order.length, codec, () => byTs, sealed);
}

/** Open rows with ts >= w, as a fresh open segment (the old arrays stay intact for scans in flight). */
export function purgeOpen(open: OpenSegment, w: number): OpenSegment {
  const out = new OpenSegment(open.hot.length, open.bytes, open.pool, open.maxRows);
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
 * ts >= w, in (pid, ts) order (mergeAll of the one or two).
 */
export function mergeSegments(a: Segment, b: Segment | null, w: number, codec: BlockCodec | null = null): Segment | null {
  return mergeAll(b === null ? [a] : [a, b], w, codec);
}

/**
 * Merges adjacent sealed segments (oldest first, at most 255) into one, keeping rows with ts >= w, in
 * (pid, ts) order; the ts permutation is merged too, so the whole is linear in rows for a fixed count.
 * Equal keys go oldest segment first: within a segment rows of one (pid, ts) are in sequence order, and an
 * older segment's sequence numbers are all lower, so the result is the one a cascade of pairwise merges gives.
 */
export function mergeAll(segs: readonly Segment[], w: number, codec: BlockCodec | null = null): Segment | null {
  const k = segs.length;
  if (k === 0 || k > 255) throw new Error(`internal: a merge of ${k} segments`);
  const offs = new Uint32Array(k + 1);
  for (let j = 0; j < k; j++) offs[j + 1] = offs[j]! + segs[j]!.n;
  const total = offs[k]!;
  // Rows of segs[j] are [offs[j], offs[j + 1]) of one index space; newIndex maps it to the output's rows.
  const newIndex = new Int32Array(total).fill(-1);
  const which = new Uint8Array(total), local = new Uint32Array(total);
  // Each input's next row and its key, cached (a TsColumn read decodes).
  const head = new Uint32Array(k), hPid = new Float64Array(k), hTs = new Float64Array(k);
  const load = (j: number): void => {
    const s = segs[j]!, i = head[j]!;
    if (i < s.n) { hPid[j] = s.pid[i]!; hTs[j] = s.ts.at(i); } else hPid[j] = Infinity;
  };
  for (let j = 0; j < k; j++) load(j);
  let n = 0;
  for (let left = total; left > 0; left--) {
    let m = 0;
    for (let j = 1; j < k; j++) if (hPid[j]! < hPid[m]! || (hPid[j] === hPid[m] && hTs[j]! < hTs[m]!)) m = j;
    const i = head[m]!++, ts = hTs[m]!;
    load(m);
    if (ts < w) continue;
    newIndex[offs[m]! + i] = n;
    which[n] = m;
    local[n++] = i;
  }
  return build(segs, k === 1 ? null : which, local, n, codec, () => {
    const byTs = new Uint32Array(n);
    const at = new Uint32Array(k), aTs = new Float64Array(k);
    const next = (j: number): void => {
      const s = segs[j]!, x = at[j]!;
      aTs[j] = x < s.n ? s.ts.at(s.byTs[x]!) : Infinity;
    };
    for (let j = 0; j < k; j++) next(j);
    let c = 0;
    for (let left = total; left > 0; left--) {
      let m = 0;
      for (let j = 1; j < k; j++) if (aTs[j]! < aTs[m]!) m = j;
      const r = offs[m]! + segs[m]!.byTs[at[m]!++]!;
      next(m);
      const ni = newIndex[r]!;
      if (ni >= 0) byTs[c++] = ni;
    }
    return byTs;
  });
}

/** The segment without the rows of projects `pids` (null when none remain); others keep their order. */
export function withoutProjects(seg: Segment, pids: ReadonlySet<number>, codec: BlockCodec | null = null): Segment | null {
  const order: number[] = [];
  for (let i = 0; i < seg.n; i++) if (!pids.has(seg.pid[i]!)) order.push(i);
  if (order.length === seg.n) return seg;
  return build([seg], null, Uint32Array.from(order), order.length, codec, sortByTs);
}

/** The open rows not of projects `pids`, as a fresh open segment. */
export function openWithoutProjects(open: OpenSegment, pids: ReadonlySet<number>): OpenSegment {
  const out = new OpenSegment(open.hot.length, open.bytes, open.pool, open.maxRows);
  const hot: number[] = new Array<number>(open.hot.length);
  for (let i = 0; i < open.n; i++) {
    if (pids.has(open.pid[i]!)) continue;
    for (let h = 0; h < hot.length; h++) hot[h] = open.hot[h]![i]!;
    out.appendFrom(open, i, hot);
  }
  return out;
}
