// Runs one planned request: rows capped at the endpoint's max_limit, redacted when asked, whole or in
// slices between which other requests are served. What the result cache and endpoints/ call to run.

import { WorkMeter } from '../core/work-meter.ts';
import type { Catalog } from '../plan/catalog.ts';
import type { PhysicalPlan } from '../exec/physical/physical-plan.ts';
import { asLimitError, runToJson, runToJsonSliced, type JsonResult } from '../exec/run.ts';
import { ExecContext, meterLimits, type Budget } from '../exec/context.ts';
import type { OutputFormat } from '../exec/sinks/row-sink.ts';
import type { BodyStream } from '../exec/body-stream.ts';
import { pinReads } from '../store/read-pins.ts';
import { redactJsonText } from '../redact/redact-json.ts';
import { planRequest, type EndpointPlan, type ResolvedRequest } from './request.ts';

export interface ExecuteResult {
  /** UTF-8 bytes of `{"result":[...]}`. */
  body: Buffer;
  rowCount: number;
  truncated: boolean;
  timings: { name: string; ms: number }[];
  /** Stored rows the scans read to compute it (X-Ringql-Rows-Scanned). */
  rowsScanned: number;
  /** The body went out through the request's stream: `body` is its last piece only. */
  streamed?: boolean;
}

/** What executing needs of an endpoint: its row cap. */
type RowCapped = { def: { max_limit: number } };

export function executeRequest(prep: EndpointPlan, req: ResolvedRequest, redact: boolean, catalog: Catalog, nowUs: number, budget: Budget): ExecuteResult {
  const t0 = performance.now();
  const plan = planRequest(prep, req, catalog, nowUs).physical;
  return executePlan(plan, prep, redact, budget, performance.now() - t0, req.format);
}

/** Executes an already planned request: rows capped at max_limit, redacted when asked. */
export function executePlan(plan: PhysicalPlan, prep: RowCapped, redact: boolean, budget: Budget, planMs: number, format: OutputFormat = 'json', ctx: ExecContext = new ExecContext(budget)): ExecuteResult {
  const t1 = performance.now();
  const r = runToJson(plan, { maxRows: prep.def.max_limit, budget, format, redact }, ctx);
  const t2 = performance.now();
  const body = redact && format !== 'csv' ? redactBody(r.body) : r.body;
  const timings = [{ name: 'plan', ms: planMs }, { name: 'exec', ms: t2 - t1 }];
  if (redact) timings.push({ name: 'redact', ms: performance.now() - t2 });
  return { body, rowCount: r.rowCount, truncated: r.truncated, timings, rowsScanned: r.rowsScanned };
}

/**
 * Plans and runs one request in slices (the serving path): its budget covers planning, folding, every row
 * and the body; between slices other requests are served; stored dictionaries stay as the scan began.
 */
export async function executeRequestSliced(prep: EndpointPlan, req: ResolvedRequest, redact: boolean, catalog: Catalog, nowUs: number, budget: Budget, stream?: BodyStream): Promise<ExecuteResult> {
  const meter = new WorkMeter(meterLimits(budget));
  const t0 = performance.now();
  let plan: PhysicalPlan;
  try {
    plan = planRequest(prep, req, catalog, nowUs, meter).physical;
  } catch (err) {
    throw asLimitError(err);
  }
  return executePlanSliced(plan, prep, redact, new ExecContext(budget, meter), performance.now() - t0, req.format, stream);
}

/** Executes a planned request in slices: rows capped at max_limit, redacted when asked. */
export async function executePlanSliced(plan: PhysicalPlan, prep: RowCapped, redact: boolean, ctx: ExecContext, planMs: number, format: OutputFormat = 'json', stream?: BodyStream): Promise<ExecuteResult> {
  const t1 = performance.now();
  const unpin = pinReads();
  let r: JsonResult;
  try {
    // Streamed pieces are cut between rows, outside any JSON string, so each redacts on its own.
    const out = stream && redact && format !== 'csv' ? { check: () => stream.check(), push: (b: Buffer, f: OutputFormat) => stream.push(redactBody(b), f) } : stream;
    r = await runToJsonSliced(plan, { maxRows: prep.def.max_limit, format, redact, ...(out ? { stream: out } : {}) }, ctx);
  } finally {
    unpin();
  }
  const t2 = performance.now();
  // CSV is redacted value by value as it is written (its text is not JSON); the others as JSON text.
  const body = redact && format !== 'csv' ? redactBody(r.body) : r.body;
  const timings = [{ name: 'plan', ms: planMs }, { name: 'exec', ms: t2 - t1 }];
  if (redact) timings.push({ name: 'redact', ms: performance.now() - t2 });
  const result: ExecuteResult = { body, rowCount: r.rowCount, truncated: r.truncated, timings, rowsScanned: r.rowsScanned };
  if (r.streamed) result.streamed = true;
  return result;
}

/** Redacts a UTF-8 body; the common case (nothing to redact) returns the same bytes. */
function redactBody(body: Buffer): Buffer {
  const text = body.toString('utf8');
  const red = redactJsonText(text);
  return red === text ? body : Buffer.from(red, 'utf8');
}
