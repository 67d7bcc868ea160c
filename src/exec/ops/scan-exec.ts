// ScanExec: reads one source through the store's scan interface (project and time range pushed
// down, newest first when asked) and exposes each stored event as a ScanRow.

import type { ScanPlan } from '../../plan/bound.ts';
import type { ScanSpec, ScanBatch } from '../../store/types.ts';
import type { RowRun } from '../../store/scan-runs.ts';
import type { Accessor } from '../../plan/compile-expr.ts';
import type { ExecContext } from '../context.ts';
import { ScanRow } from '../scan-row.ts';
import { missingColumn, type Operator } from '../operator.ts';
import type { Value } from '../../core/values.ts';

const BASE_COLUMNS = new Set(['id', 'event_message', 'metadata']);

export class ScanExec implements Operator {
  private readonly iter: Iterator<ScanBatch>;
  /** Set when built for column runs (nextRun): the store's runs of the same snapshot, in any order. */
  private readonly runs: Iterator<RowRun> | null = null;
  private readonly accessors = new Map<number, Accessor>();
  /** Dictionary ids of the requested hot keys for the rows of the last batch, one array per key. */
  lastHot: Uint32Array[] = [];

  constructor(private readonly plan: ScanPlan, private readonly ctx: ExecContext, batchHint: number | null, private readonly hotKeys: string[] = [], asRuns = false) {
    // The snapshot is taken now, when the pipeline is built: every scan of one query reads the same
    // instant of the store, however many slices the query then takes.
    const spec = scanSpec(plan, ctx, batchHint, hotKeys);
    const runs = asRuns && plan.order === 'any' ? plan.source.scanRuns?.(spec) : undefined;
    if (runs) this.runs = runs[Symbol.iterator]();
    this.iter = runs ? [][Symbol.iterator]() : plan.source.scan(spec)[Symbol.iterator]();
    const topProject = plan.source.def.projectPath.length === 1 && plan.source.def.projectPath[0] === 'project';
    for (const c of plan.cols) {
      const name = c.name;
      let a: Accessor;
      if (name === 'timestamp') a = (r) => (r as ScanRow).ts;
      else if (name === 'project' && topProject) a = (r) => (r as ScanRow).project;
      else if (name === 'id' || name === 'event_message') a = (r) => (r as ScanRow).head(name);
      else if (BASE_COLUMNS.has(name)) a = (r) => (r as ScanRow).base()[name] ?? null;
      // Own members only: an event without a `constructor` key reads NULL, not Object.prototype's.
      else a = (r) => { const x = (r as ScanRow).extras(); return Object.hasOwn(x, name) ? (x[name] ?? null) : (null as Value); };
      this.accessors.set(c.id, a);
    }
  }

  /** The next non-empty store batch as is (rows made on demand with rowOf); sets lastHot. */
  nextRaw(): ScanBatch | null {
    for (;;) {
      const r = this.iter.next();
      if (r.done) return null;
      const b = r.value;
      if (b.n === 0) continue;
      this.ctx.charge(b.n);
      this.ctx.scanned += b.n;
      if (this.hotKeys.length) this.lastHot = this.hotKeys.map((k) => hotIdsOf(b, k));
      return b;
    }
  }

  /** Whether this scan reads column runs (nextRun) rather than batches (the source offers them). */
  get runMode(): boolean {
    return this.runs !== null;
  }

  /** The next non-empty column run (run mode only): rows counted and charged as a batch's are. */
  nextRun(): RowRun | null {
    const r = this.runs!.next();
    if (r.done) return null;
    this.ctx.charge(r.value.n);
    this.ctx.scanned += r.value.n;
    return r.value;
  }

  /** The source column name behind one of this scan's column ids (undefined when not its column). */
  columnName(id: number): string | undefined {
    return this.plan.cols.find((c) => c.id === id)?.name;
  }

  rowOf(b: ScanBatch, i: number): ScanRow {
    return new ScanRow(b.rows[i]!, b.idx[i]!, b.ts[i]!, b.project[i] ?? null);
  }

  next(): unknown[] | null {
    for (;;) {
      const r = this.iter.next();
      if (r.done) return null;
      const b = r.value;
      if (b.n === 0) continue;
      this.ctx.charge(b.n);
      this.ctx.scanned += b.n;
      const rows = new Array<ScanRow>(b.n);
      for (let i = 0; i < b.n; i++) rows[i] = new ScanRow(b.rows[i]!, b.idx[i]!, b.ts[i]!, b.project[i] ?? null);
      if (this.hotKeys.length) this.lastHot = this.hotKeys.map((k) => hotIdsOf(b, k));
      return rows;
    }
  }

  acc(id: number): Accessor {
    return this.accessors.get(id) ?? missingColumn(id, `scan of ${this.plan.source.def.name}`);
  }

  raw(scanId: number): ((row: unknown) => ScanRow) | null {
    return scanId === this.plan.scanId ? (r) => r as ScanRow : null;
  }
}

/**
 * The batch's dictionary ids of hot column `key` (once per batch). A catalog whose scan leaves out a
 * key the plan asked for is a bug: named here, not a TypeError some rows later.
 */
function hotIdsOf(b: ScanBatch, key: string): Uint32Array {
  const ids = b.hot.get(key);
  if (ids === undefined) throw new Error(`internal: the scan batch carries no hot column "${key}"`);
  return ids;
}

/** The store's scan spec of a scan node in this run (pushed-down bounds, the run's sequence floor, batch sizes). */
export function scanSpec(p: ScanPlan, ctx: ExecContext, batchHint: number | null, hotKeys: readonly string[] = []): ScanSpec {
  const s: ScanSpec = { order: p.order };
  if (p.project !== undefined) s.project = p.project;
  if (p.minTs !== undefined) { s.minTs = p.minTs; s.minInclusive = p.minInclusive ?? true; }
  if (p.maxTs !== undefined) { s.maxTs = p.maxTs; s.maxInclusive = p.maxInclusive ?? true; }
  const after = ctx.afterSeqBySource?.get(p.source.def.name) ?? ctx.afterSeq;
  if (after !== null) s.afterSeq = after;
  if (batchHint !== null) s.batchSize = Math.max(1, Math.min(batchHint, 4096));
  // An ordered scan usually feeds a LIMIT somewhere above (possibly behind a filter): start small.
  else if (p.order !== 'any') s.firstBatchSize = 64;
  if (hotKeys.length) s.hot = [...hotKeys];
  return s;
}
