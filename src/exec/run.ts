// Runs a plan and writes the HTTP body `{"result":[...]}` directly: rows that are whole stored
// events in their stored column order are spliced from the bytes serialised at ingest.

import { RingqlError } from '../core/errors.ts';
import { BodyWriter } from './body-writer.ts';
import type { ColInfo, Plan } from '../plan/bound.ts';
import { buildOperator } from './build.ts';
import { ExecContext, type Budget } from './context.ts';
import type { Operator } from './operator.ts';
import type { ScanRow } from './scan-row.ts';
import { valueToJson, type Value } from './values.ts';


export interface RunOptions {
  /** Rows beyond this are cut (the endpoint's max_limit); null = no cap. */
  maxRows: number | null;
  budget?: Budget;
}

export interface JsonResult {
  /** `{"result":[...]}` as UTF-8 bytes. */
  body: Buffer;
  rowCount: number;
  truncated: boolean;
  rowsProcessed: number;
}

const STORED_ORDER = ['id', 'timestamp', 'event_message', 'metadata'];

/** Rejects result column names that cannot both be keys of one JSON row. */
export function checkOutputColumns(cols: ColInfo[]): void {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const c of cols) {
    if (seen.has(c.name)) dup.add(c.name);
    seen.add(c.name);
  }
  if (dup.size) throw new RingqlError('query_error', `Duplicate column names in the result are not supported. Found duplicate(s): ${[...dup].join(', ')}`);
}

function spliceAccessor(plan: Plan, op: Operator): ((row: unknown) => ScanRow) | null {
  const cols = plan.cols;
  if (cols.length !== STORED_ORDER.length) return null;
  const scan = cols[0]!.origin?.scan;
  if (!scan) return null;
  for (let i = 0; i < cols.length; i++) {
    const o = cols[i]!.origin;
    if (cols[i]!.name !== STORED_ORDER[i] || !o || o.scan !== scan || o.element || o.path.length !== 1 || o.path[0] !== STORED_ORDER[i]) return null;
  }
  return op.raw(scan.scanId);
}

export function runToJson(plan: Plan, opts: RunOptions): JsonResult {
  checkOutputColumns(plan.cols);
  const ctx = new ExecContext(opts.budget);
  const cap = opts.maxRows;
  const op = buildOperator(plan, ctx, cap === null ? null : cap + 1);
  const splice = spliceAccessor(plan, op);
  const accs = plan.cols.map((c) => op.acc(c.id));
  const keys = plan.cols.map((c, i) => (i === 0 ? '{' : ',') + JSON.stringify(c.name) + ':');
  const out = new BodyWriter();
  out.write('{"result":[');
  let rows = 0;
  let truncated = false;
  outer: for (let b = op.next(); b !== null; b = op.next()) {
    for (const r of b) {
      if (cap !== null && rows >= cap) { truncated = true; break outer; }
      if (rows++ > 0) out.write(',');
      if (splice) { out.write(splice(r).jsonBytes()); continue; }
      let s = '';
      for (let i = 0; i < accs.length; i++) s += keys[i] + valueToJson(accs[i]!(r));
      out.write(accs.length ? s + '}' : '{}');
    }
  }
  out.write(']}');
  return { body: out.finish(), rowCount: rows, truncated, rowsProcessed: ctx.rowsProcessed };
}

/** Runs a plan to plain row objects (tests, the bucket-cache comparisons). */
export function runToRows(plan: Plan, budget?: Budget): Record<string, Value>[] {
  const ctx = new ExecContext(budget);
  const op = buildOperator(plan, ctx);
  const accs = plan.cols.map((c) => [c.name, op.acc(c.id)] as const);
  const out: Record<string, Value>[] = [];
  for (let b = op.next(); b !== null; b = op.next()) {
    for (const r of b) {
      const o: Record<string, Value> = {};
      for (const [n, a] of accs) o[n] = a(r);
      out.push(o);
    }
  }
  return out;
}
