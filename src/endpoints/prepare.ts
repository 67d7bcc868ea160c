// Prepares a saved query once, when it is created or loaded: parse, derive its parameter list and
// CTEs (names and columns, for LQL and error messages), and bind, plan and physically plan it (the
// engine keeps plan templates for the shapes sample values take, so requests only put their values
// in) — strictly on create/update; a stored one that does not bind yet is kept and binds on its first request.

import { RingqlError } from '../core/errors.ts';
import { parseSql } from '../sql/parse.ts';
import { queryParams } from '../sql/walk.ts';
import type { Query } from '../sql/ast.ts';
import { Binder } from '../plan/binder.ts';
import { instantiate, prepare, type Prepared } from '../engine/engine.ts';
import type { Catalog } from '../plan/catalog.ts';
import type { EndpointDef } from './definition.ts';
import { RESERVED_PARAMS } from './definition.ts';
import type { ParamRule } from './service-types.ts';
import { sampleValueSets } from './param-samples.ts';

export interface PreparedEndpoint {
  def: EndpointDef;
  query: Query;
  /** Every @param of the query with its rule (declared rules merged in; undeclared = optional). */
  params: ParamRule[];
  /** Lower-cased names of the params above. */
  paramNames: Set<string>;
  ctes: { name: string; columns: string[] }[];
  /** The engine's prepared query: bound and planned instances per parameter values and sandbox text. */
  engine: Prepared;
}

/** Parses SQL that must be exactly one SELECT statement (a saved query). */
export function parseSavedQuery(sql: string): Query {
  const stmts = parseSql(sql);
  if (stmts.length !== 1) {
    throw new RingqlError('syntax_error', `A saved query must be exactly one statement; found ${stmts.length}`, { line: 1, column: 1 });
  }
  const s = stmts[0]!;
  if (s.kind !== 'query') {
    throw new RingqlError('syntax_error', `A saved query must be a SELECT; found ${s.verb}`, { line: s.pos?.line ?? 1, column: s.pos?.column ?? 1 });
  }
  return s;
}

/**
 * Prepares for create and update (SPEC §3): parse, then bind once with every parameter NULL, so
 * unknown names, sources and type errors fail now, with line and column.
 */
export function prepareEndpoint(def: EndpointDef, catalog: Catalog, nowUs: number): PreparedEndpoint {
  return bindParsed(parseEndpoint(def, catalog), catalog, nowUs);
}

function bindParsed(parsed: Omit<PreparedEndpoint, 'ctes'>, catalog: Catalog, nowUs: number): PreparedEndpoint {
  instantiate(parsed.engine, absentParams(parsed.params), { nowUs });
  prepareShapes(parsed, nowUs);
  return { ...parsed, ctes: cteColumns(parsed.query, catalog, nowUs) };
}

/**
 * Binds and plans the plan shapes of sample values (every allowed value; absent and present for the
 * others), so requests with new values only put them in. A sample that does not bind (a value the
 * query cannot use) is skipped: such values bind on their request, as they would have.
 */
function prepareShapes(parsed: Omit<PreparedEndpoint, 'ctes'>, nowUs: number): void {
  for (const values of sampleValueSets(parsed.params)) {
    try {
      instantiate(parsed.engine, values, { nowUs });
    } catch (err) {
      if (!(err instanceof RingqlError)) throw err;
    }
  }
}

/** Every parameter NULL, as a request that gives none resolves them (declaration order). */
function absentParams(params: ParamRule[]): Map<string, string | null> {
  return new Map(params.map((p) => [p.name, null]));
}

/**
 * Prepares a stored endpoint at start: it must parse (else this throws), but it need not bind yet:
 * a field that only events carry is unknown until they arrive again. Such an endpoint is kept, its
 * CTE columns are found on first use, and each request binds as always (unknown_name while the name
 * is still unknown). Returns the binding error, if any, so the caller can say so.
 */
export function loadEndpoint(def: EndpointDef, catalog: Catalog, now: () => number): { prep: PreparedEndpoint; bindError: RingqlError | null } {
  const parsed = parseEndpoint(def, catalog);
  try {
    return { prep: bindParsed(parsed, catalog, now()), bindError: null };
  } catch (err) {
    if (!(err instanceof RingqlError)) throw err;
    let ctes: PreparedEndpoint['ctes'] | null = null;
    const prep: PreparedEndpoint = {
      ...parsed,
      get ctes() {
        // Not cached until it succeeds: it throws the request's unknown_name while the name is unknown.
        return (ctes ??= cteColumns(parsed.query, catalog, now()));
      },
    };
    return { prep, bindError: err };
  }
}

const NULL_PARAMS: ReadonlyMap<string, string | null> = new Map();

/** Parses the saved query and derives its parameters; checks what needs no source (reserved and unused names). */
function parseEndpoint(def: EndpointDef, catalog: Catalog): Omit<PreparedEndpoint, 'ctes'> {
  const query = parseSavedQuery(def.query);
  const used = queryParams(query);
  for (const p of used) {
    if (RESERVED_PARAMS.has(p.toLowerCase())) throw new RingqlError('invalid_parameter', `@${p} is a reserved parameter name (sql, lql and api_key are)`, { param: p });
  }
  const rules = new Map(def.params.map((r) => [r.name.toLowerCase(), r]));
  for (const r of def.params) {
    if (!used.some((u) => u.toLowerCase() === r.name.toLowerCase())) {
      throw new RingqlError('invalid_parameter', `params declares @${r.name}, which the query does not use`, { param: r.name });
    }
  }
  const params = used.map((u) => rules.get(u.toLowerCase()) ?? { name: u });
  const paramNames = new Set(params.map((p) => p.name.toLowerCase()));
  // The server caps rows at max_limit (and reads one more to know it cut); the bucket cache answers when results are cached.
  const physical = { limitHint: def.max_limit + 1, bucketCache: def.cache_duration_seconds > 0 };
  const engine = prepare(query, { catalog, declaredParams: paramNames, physical });
  return { def, query, params, paramNames, engine };
}

/** The columns of each CTE of the saved query (for LQL and error messages). */
function cteColumns(query: Query, catalog: Catalog, nowUs: number): PreparedEndpoint['ctes'] {
  return (query.with ?? []).map((c) => {
    const b = new Binder({ catalog, params: NULL_PARAMS, declaredParams: null, nowUs });
    const probe: Query = { kind: 'query', body: { kind: 'select', distinct: false, items: [{ kind: 'star' }], from: { kind: 'table', name: [c.name] } } };
    const plan = b.bindSandboxed(query, probe);
    return { name: c.name, columns: plan.cols.map((x) => x.name) };
  });
}
