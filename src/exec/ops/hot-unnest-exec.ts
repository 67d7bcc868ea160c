// HotUnnestExec: a chain of JOIN UNNESTs from a scan (`unnest(metadata) m`, `unnest(m.request) r`) whose
// last element is read only as `r.<leaf>` for leaves the store keeps as hot dictionary columns. Rows whose
// hot values are exact (one record at each step: LEFT and CROSS agree) skip JSON parsing entirely; the
// rest take the generic unnest path.
// A filter above it can be fused in: when it reads one leaf only, it runs once per dictionary value.

import { readField, type Accessor } from '../../plan/compile-expr.ts';
import type { ExecContext } from '../context.ts';
import type { Operator } from '../operator.ts';
import { ScanRow } from '../scan-row.ts';
import type { Value } from '../../core/values.ts';
import { INEXACT_ID } from '../../store/hot-paths.ts';
import type { HotDict } from '../../store/hot-dict.ts';
import { PlainTs, type TsRead } from '../../store/ts-column.ts';
import type { ScanExec } from './scan-exec.ts';
import { predicateMemo } from '../predicate-memo.ts';

export interface HotChain {
  /** Reads the array the first unnest expands (a column of the scan). */
  first: Accessor;
  /** Record field each further unnest expands, bottom first (e.g. ['request']). */
  fields: string[];
  /** Column id of each unnest's element, bottom first. */
  elemIds: number[];
  /** LEFT (true) or CROSS (false) per unnest, bottom first. */
  outer: boolean[];
  /** Leaves read on the last element, each with its dictionary (aligned with the scan's hot keys). */
  leaves: { name: string; dict: HotDict }[];
}

/** A fused filter: `pred` on output rows; `memoLeaf` (and its canonical `memoKey`) set when it reads nothing but that one leaf. */
export interface HotFilter {
  pred: Accessor;
  memoLeaf: number | null;
  memoKey: string | null;
}

const UNKNOWN = 0, PASS = 1, FAIL = 2;

/** Exact rows sel[0, n) that pass: indices into `ts` and the hot id columns (a store batch's, or a segment's own). */
export interface HotSelection {
  /** Row i's timestamp: ts.at(i) (a PlainTs over a batch's Float64Array, or a segment's column). */
  ts: TsRead;
  hot: ArrayLike<number>[];
  sel: Int32Array;
  n: number;
  generic: unknown[];
}

/** Output rows are [scanRow, elem1, ..., elemK]; on the fast path only elemK (a record of the leaves) is set. */
export class HotUnnestExec implements Operator {
  private readonly depth: number;
  private filter: HotFilter | null = null;
  private memo: Uint8Array | null = null;

  /** `alias` maps the columns of a plain projection between the chain and the scan to scan columns. */
  constructor(private readonly scan: ScanExec, private readonly alias: ReadonlyMap<number, number>, private readonly chain: HotChain, private readonly ctx: ExecContext) {
    this.depth = chain.elemIds.length;
  }

  /** The source column name behind a column id of the scan (seen through the projection alias). */
  scanColumnName(id: number): string | undefined {
    return this.scan.columnName(this.alias.get(id) ?? id);
  }

  leafIndex(name: string): number {
    return this.chain.leaves.findIndex((l) => l.name === name);
  }

  /** Fuses a filter compiled against this operator's own accessors. */
  setFilter(f: HotFilter): void {
    this.filter = f;
  }

  /**
   * The next store batch as a selection: `sel[0..n)` are the exact rows that pass the fused filter (read
   * them through `hot`/`batch` by index, no row objects), `generic` the rows of inexact events that pass.
   */
  nextSelection(): HotSelection | null {
    const { leaves } = this.chain;
    const filter = this.filter;
    const memoLeaf = filter?.memoLeaf ?? null;
    if (memoLeaf !== null && this.memo === null) this.memo = predicateMemo(leaves[memoLeaf]!.dict, filter!.memoKey!);
    if (this.scan.runMode) return this.runSelection();
    const b = this.scan.nextRaw();
    if (b === null) return null;
    const hot = this.scan.lastHot;
    const sel = new Int32Array(b.n);
    for (let i = 0; i < b.n; i++) sel[i] = i;
    const generic: unknown[] = [];
    const n = this.select(hot, sel, b.n, (i) => this.scan.rowOf(b, i), generic);
    return { ts: new PlainTs(b.ts), hot, sel, n, generic };
  }

  /** Rows of inexact events met since the scan's last batch ended (runs split batches). */
  private pendingGeneric: unknown[] = [];

  /**
   * A column run of the store as a selection: its rows filtered in place, the segment's columns read
   * directly. Rows of inexact events come with the run that ends the scan's batch, as they came with
   * the batch: a consumer sees exact and generic rows in the same order as over batches.
   */
  private runSelection(): HotSelection | null {
    const run = this.scan.nextRun();
    if (run === null) {
      if (this.pendingGeneric.length === 0) return null;
      const generic = this.pendingGeneric;
      this.pendingGeneric = [];
      return { ts: new PlainTs([]), hot: [], sel: new Int32Array(0), n: 0, generic };
    }
    const { rows, ts, projectNames } = run;
    const rowOf = (r: number): ScanRow => new ScanRow(rows, r, ts.at(r), projectNames[rows.pid[r]!] ?? null);
    const n = this.select(run.hot, run.sel, run.n, rowOf, this.pendingGeneric);
    let generic: unknown[] = [];
    if (run.batchEnd) { generic = this.pendingGeneric; this.pendingGeneric = []; }
    return { ts, hot: run.hot, sel: run.sel, n, generic };
  }

  /**
   * Keeps in sel[0, n) (in place) the exact rows that pass the fused filter; rows of inexact events go
   * through the generic unnest, appended to `generic`. Returns the new n.
   */
  private select(hot: ArrayLike<number>[], sel: Int32Array, count: number, rowOf: (i: number) => ScanRow, generic: unknown[]): number {
    const { leaves } = this.chain;
    const filter = this.filter;
    const memoLeaf = filter?.memoLeaf ?? null;
    const memo = this.memo;
    const k = this.depth;
    const generic0 = generic.length;
    // An exact value of the memoised leaf that failed before fails again: most rows end at this test.
    const memoCol = memoLeaf === null || memo === null ? null : hot[memoLeaf]!;
    const memoLen = memo === null ? 0 : memo.length;
    let n = 0;
    for (let j = 0; j < count; j++) {
      const i = sel[j]!;
      if (memoCol !== null) {
        const id = memoCol[i]!;
        if (id !== INEXACT_ID && id < memoLen && memo![id] === FAIL) continue;
      }
      let exact = true;
      for (let l = 0; l < leaves.length; l++) {
        if (hot[l]![i] === INEXACT_ID) { exact = false; break; }
      }
      if (!exact) { this.expand(rowOf(i), generic); continue; }
      if (filter !== null) {
        const id = memoLeaf === null ? -1 : hot[memoLeaf]![i]!;
        let known = memo !== null && id >= 0 && id < memo.length ? memo[id]! : UNKNOWN;
        if (known === UNKNOWN) {
          // A memoised predicate reads its one leaf only: no scan row is needed to evaluate it.
          let row: unknown[];
          if (memoLeaf !== null) row = this.scratchRow(memoLeaf, id);
          else { row = new Array<unknown>(k + 1); row[0] = rowOf(i); row[k] = this.record(hot, i); }
          known = filter.pred(row) === true ? PASS : FAIL;
          if (memo !== null && id >= 0 && id < memo.length) memo[id] = known;
        }
        if (known === FAIL) continue;
      }
      sel[n++] = i;
    }
    this.ctx.charge(n + generic.length - generic0);
    return n;
  }

  /** The last element's record for exact row i of a batch. */
  record(hot: ArrayLike<number>[], i: number): Record<string, Value> {
    const rec: Record<string, Value> = {};
    for (let l = 0; l < this.chain.leaves.length; l++) rec[this.chain.leaves[l]!.name] = this.chain.leaves[l]!.dict.get(hot[l]![i]!) as Value;
    return rec;
  }

  private readonly scratch = new Map<number, { row: unknown[]; rec: Record<string, Value> }>();

  /**
   * A reused row whose last element holds only leaf `l` = dictionary value `id`: enough for an expression
   * that reads that one leaf, without allocating per evaluation. Valid until the next call for `l`.
   */
  scratchRow(l: number, id: number): unknown[] {
    let s = this.scratch.get(l);
    if (!s) {
      const rec: Record<string, Value> = {};
      rec[this.chain.leaves[l]!.name] = null;
      s = { row: this.leafRow(rec), rec };
      this.scratch.set(l, s);
    }
    s.rec[this.chain.leaves[l]!.name] = this.chain.leaves[l]!.dict.get(id) as Value;
    return s.row;
  }

  /** An output row holding only the last element's record (enough for expressions that read its leaves only). */
  leafRow(rec: Record<string, Value>): unknown[] {
    const row = new Array<unknown>(this.depth + 1);
    row[this.depth] = rec;
    return row;
  }

  leafDict(l: number): HotDict {
    return this.chain.leaves[l]!.dict;
  }

  leafName(l: number): string {
    return this.chain.leaves[l]!.name;
  }

  get topElemId(): number {
    return this.chain.elemIds[this.depth - 1]!;
  }

  next(): unknown[] | null {
    const { leaves } = this.chain;
    const k = this.depth;
    const filter = this.filter;
    const memoLeaf = filter?.memoLeaf ?? null;
    if (memoLeaf !== null && this.memo === null) this.memo = predicateMemo(leaves[memoLeaf]!.dict, filter!.memoKey!);
    const memo = this.memo;
    for (;;) {
      const b = this.scan.nextRaw();
      if (b === null) return null;
      const hot = this.scan.lastHot;
      const out: unknown[] = [];
      for (let i = 0; i < b.n; i++) {
        let known = UNKNOWN;
        let id = 0;
        if (memo !== null) {
          id = hot[memoLeaf!]![i]!;
          if (id < memo.length) {
            known = memo[id]!;
            if (known === FAIL) continue;
          }
        }
        const rec: Record<string, Value> = {};
        let exact = true;
        for (let l = 0; l < leaves.length; l++) {
          const id = hot[l]![i]!;
          if (id === INEXACT_ID) { exact = false; break; }
          rec[leaves[l]!.name] = leaves[l]!.dict.get(id) as Value;
        }
        if (!exact) { this.expand(this.scan.rowOf(b, i), out); continue; }
        const row = new Array<unknown>(k + 1);
        row[0] = this.scan.rowOf(b, i);
        row[k] = rec;
        if (filter !== null && known !== PASS) {
          const ok = filter.pred(row) === true;
          if (memo !== null && id < memo.length) memo[id] = ok ? PASS : FAIL;
          if (!ok) continue;
        }
        out.push(row);
      }
      this.ctx.charge(out.length);
      if (out.length || this.ctx.yieldDue) return out;
    }
  }

  /** The generic JOIN UNNEST chain for one row (records missing or repeated on the way, odd leaves). */
  private expand(row: ScanRow, out: unknown[]): void {
    const k = this.depth;
    const pred = this.filter?.pred ?? null;
    const walk = (vals: Value[], d: number): void => {
      if (d === k) {
        const r = [row, ...vals];
        if (pred === null || pred(r) === true) out.push(r);
        return;
      }
      const arr = d === 0 ? this.chain.first(row) : readField(vals[d - 1]!, this.chain.fields[d - 1]!);
      const elems = Array.isArray(arr) ? arr : arr !== null && typeof arr === 'object' ? [arr] : null;
      if (elems && elems.length) for (const e of elems) walk([...vals, e ?? null], d + 1);
      else if (this.chain.outer[d]) walk([...vals, null], d + 1);
    };
    walk([], 0);
  }

  acc(id: number): Accessor {
    const j = this.chain.elemIds.indexOf(id);
    if (j >= 0) return (r) => ((r as unknown[])[j + 1] ?? null) as Value;
    const inner = this.scan.acc(this.alias.get(id) ?? id);
    return (r) => inner((r as unknown[])[0]);
  }

  raw(scanId: number): ((row: unknown) => ScanRow) | null {
    const inner = this.scan.raw(scanId);
    return inner ? (r) => inner((r as unknown[])[0]) : null;
  }
}
