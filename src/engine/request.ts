// One request as the engine sees it: the parameter values and consumer query that decide its answer,
// the prepared query they run against, and planRequest(), which gives its plan without planner internals.

import { RingqlError } from '../core/errors.ts';
import { DEFAULT_LIMITS, type Limits } from '../core/limits.ts';
import type { WorkMeter } from '../core/work-meter.ts';
import { parseSql } from '../sql/parse.ts';
import type { Query } from '../sql/ast.ts';
import { compileLql } from '../lql/compile.ts';
import type { Catalog } from '../plan/catalog.ts';
import type { OutputFormat } from '../exec/sinks/row-sink.ts';
import { instantiate, type Consumer, type Instance, type Prepared } from './engine.ts';

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

/** What running a saved query needs of its endpoint (endpoints/prepare.ts's PreparedEndpoint is one). */
export interface EndpointPlan {
  def: { id: string; name: string; max_limit: number; cache_duration_seconds: number; proactive_requerying_seconds: number };
  /** The engine's prepared query. */
  engine: Prepared;
  /** The saved CTEs and their columns (LQL reads them). */
  readonly ctes: { name: string; columns: string[] }[];
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
 * The planned query of a request, from the engine: a prepared plan with these parameter values (and
 * sandbox text) put in, bound and planned only for a new plan shape, under `meter` (the request's budget).
 */
export function planRequest(prep: EndpointPlan, req: ResolvedRequest, _catalog: Catalog, nowUs: number, meter?: WorkMeter): Instance {
  const parseConsumer = (c: Consumer): Query => (c.kind === 'sql' ? parseConsumerSql(c.text, req.limits) : compileLql(c.text, prep.ctes));
  return instantiate(prep.engine, req.values, meter ? { nowUs, consumer: req.consumer, parseConsumer, meter } : { nowUs, consumer: req.consumer, parseConsumer });
}
