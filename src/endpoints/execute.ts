// Runs one request against a prepared endpoint: checks parameters before anything runs, splices a
// consumer `sql`/`lql` query into the saved WITH list (sandbox), plans, executes, redacts.

import { RingqlError } from '../core/errors.ts';
import { parseTimestamp } from '../core/time.ts';
import { parseSql } from '../sql/parse.ts';
import { DEFAULT_LIMITS, type Limits } from '../core/limits.ts';
import type { Query } from '../sql/ast.ts';
import { compileLql } from '../lql/compile.ts';
import { compileRegex } from '../core/regex.ts';
import { instantiate, type Consumer, type Instance } from '../engine/engine.ts';
import type { PhysicalPlan } from '../exec/physical/physical-plan.ts';
import type { Catalog } from '../plan/catalog.ts';
import { asLimitError, runToJson, runToJsonSliced, type JsonResult } from '../exec/run.ts';
import { ExecContext, meterLimits } from '../exec/context.ts';
import { WorkMeter } from '../core/work-meter.ts';
import { pinReads } from '../store/read-pins.ts';
import type { Budget } from '../exec/context.ts';
import { redactJsonText } from '../redact/redact-json.ts';
import type { PreparedEndpoint } from './prepare.ts';
import type { OutputFormat } from '../exec/sinks/row-sink.ts';
import type { BodyStream } from '../exec/body-stream.ts';
import { chooseFormat } from './output-format.ts';

/** The request values that decide an answer: declared parameter values and the consumer query. */
export interface ResolvedRequest {
  /** Declared parameters by their declared name; absent or empty optional ones are null. */
  values: Map<string, string | null>;
  consumer: { kind: 'sql' | 'lql'; text: string } | null;
  /** Length and nesting limits for the consumer query. */
  limits: Pick<Limits, 'maxQueryLength' | 'maxQueryDepth'>;
  /** The body's format (SPEC §3 "Output formats"); absent = json. */
  format?: OutputFormat;
}

/**
 * Validates parameters against the endpoint's rules (required, allowed values, type) and picks the
 * output format: `accepted` is what the Accept header allows (null: none of the formats).
 */
export function resolveRequest(prep: PreparedEndpoint, raw: ReadonlyMap<string, string>, limits: Pick<Limits, 'maxQueryLength' | 'maxQueryDepth'> = DEFAULT_LIMITS, accepted: OutputFormat | null = 'json'): ResolvedRequest {
  const lower = new Map<string, string>();
  for (const [k, v] of raw) if (!lower.has(k.toLowerCase())) lower.set(k.toLowerCase(), v);
  const values = new Map<string, string | null>();
  for (const rule of prep.params) {
    const v = lower.get(rule.name.toLowerCase());
    if (v === undefined || v === '') {
      if (rule.required) {
        throw new RingqlError('missing_parameter', `Parameter "${rule.name}" is required by endpoint ${prep.def.name}${v === '' ? ' and must not be empty' : ''}`, { param: rule.name, ...(rule.allowed ? { allowed: rule.allowed } : {}) });
      }
      values.set(rule.name, v === '' ? '' : null);
      continue;
    }
    if (rule.allowed && !rule.allowed.includes(v)) {
      throw new RingqlError('invalid_parameter', `Parameter "${rule.name}" must be one of ${rule.allowed.join(', ')}; got "${v.length > 100 ? v.slice(0, 100) + '…' : v}"`, { param: rule.name, allowed: rule.allowed });
    }
    if (rule.type === 'timestamp' && parseTimestamp(v) === null) {
      throw new RingqlError('invalid_parameter', `Parameter "${rule.name}" must be an ISO 8601 timestamp such as 2024-01-15T05:00:00Z; got "${v.slice(0, 100)}"`, { param: rule.name });
    }
    if (rule.type === 'regex') {
      try {
        compileRegex(v);
      } catch (err) {
        if (err instanceof RingqlError) throw new RingqlError('invalid_parameter', `Parameter "${rule.name}": ${err.message}`, { param: rule.name });
        throw err;
      }
    }
    values.set(rule.name, v);
  }
  const sql = lower.get('sql');
  const lql = lower.get('lql');
  let consumer: ResolvedRequest['consumer'] = null;
  if (sql) consumer = { kind: 'sql', text: sql };
  else if (lql) consumer = { kind: 'lql', text: lql };
  if (consumer && !prep.def.sandboxable) {
    throw new RingqlError('sandbox_disabled', `Endpoint ${prep.def.name} is not sandboxable: the ${consumer.kind} parameter is not accepted`, { param: consumer.kind });
  }
  if (consumer && consumer.text.length > limits.maxQueryLength) {
    throw new RingqlError('value_too_large', `The ${consumer.kind} parameter is ${consumer.text.length} characters long; the limit is ${limits.maxQueryLength} (RINGQL_MAX_QUERY_LENGTH)`, { param: consumer.kind, limit: limits.maxQueryLength });
  }
  const format = chooseFormat(prep, lower, accepted);
  return format === 'json' ? { values, consumer, limits } : { values, consumer, limits, format };
}

/** Parses a consumer `sql` value: exactly one SELECT statement. */
export function parseConsumerSql(text: string, limits: Pick<Limits, 'maxQueryLength' | 'maxQueryDepth'> = DEFAULT_LIMITS): Query {
  const stmts = parseSql(text, { maxLength: limits.maxQueryLength, maxDepth: limits.maxQueryDepth });
  if (stmts.length === 0) throw new RingqlError('syntax_error', 'The sql parameter holds no statement', { line: 1, column: 1 });
  for (const s of stmts) {
    if (s.kind !== 'query') {
      throw new RingqlError('sandbox_violation', `Only SELECT queries allowed; found ${s.verb}`, { ...(s.pos ? { line: s.pos.line, column: s.pos.column } : {}) });
    }
  }
  if (stmts.length > 1) throw new RingqlError('sandbox_violation', `Only singular query allowed; found ${stmts.length} statements`);
  return stmts[0] as Query;
}

/**
 * The planned query of a request, from the engine: a prepared instance when these parameter values (and
 * sandbox text) were seen, else bound and planned now, under `meter` (the request's budget) when given.
 */
export function planRequest(prep: PreparedEndpoint, req: ResolvedRequest, _catalog: Catalog, nowUs: number, meter?: WorkMeter): Instance {
  const parseConsumer = (c: Consumer): Query => (c.kind === 'sql' ? parseConsumerSql(c.text, req.limits) : compileLql(c.text, prep.ctes));
  return instantiate(prep.engine, req.values, meter ? { nowUs, consumer: req.consumer, parseConsumer, meter } : { nowUs, consumer: req.consumer, parseConsumer });
}

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

export function executeRequest(prep: PreparedEndpoint, req: ResolvedRequest, redact: boolean, catalog: Catalog, nowUs: number, budget: Budget): ExecuteResult {
  const t0 = performance.now();
  const plan = planRequest(prep, req, catalog, nowUs).physical;
  return executePlan(plan, prep, redact, budget, performance.now() - t0, req.format);
}

/** Executes an already planned request: rows capped at max_limit, redacted when asked. */
export function executePlan(plan: PhysicalPlan, prep: PreparedEndpoint, redact: boolean, budget: Budget, planMs: number, format: OutputFormat = 'json', ctx: ExecContext = new ExecContext(budget)): ExecuteResult {
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
export async function executeRequestSliced(prep: PreparedEndpoint, req: ResolvedRequest, redact: boolean, catalog: Catalog, nowUs: number, budget: Budget, stream?: BodyStream): Promise<ExecuteResult> {
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
export async function executePlanSliced(plan: PhysicalPlan, prep: PreparedEndpoint, redact: boolean, ctx: ExecContext, planMs: number, format: OutputFormat = 'json', stream?: BodyStream): Promise<ExecuteResult> {
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
