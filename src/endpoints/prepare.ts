// Prepares a saved query once, when it is loaded or created: parse, check it binds against the
// sources (unknown names and sources fail here, with line and column), and derive its parameter
// list and CTEs (names and columns, for LQL and error messages).

import { RingqlError } from '../core/errors.ts';
import { parseSql } from '../sql/parse.ts';
import { queryParams } from '../sql/walk.ts';
import type { Query } from '../sql/ast.ts';
import { Binder } from '../plan/binder.ts';
import type { Catalog } from '../plan/catalog.ts';
import type { EndpointDef } from './definition.ts';
import { RESERVED_PARAMS } from './definition.ts';
import type { ParamRule } from './service-types.ts';

export interface PreparedEndpoint {
  def: EndpointDef;
  query: Query;
  /** Every @param of the query with its rule (declared rules merged in; undeclared = optional). */
  params: ParamRule[];
  /** Lower-cased names of the params above. */
  paramNames: Set<string>;
  ctes: { name: string; columns: string[] }[];
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

export function prepareEndpoint(def: EndpointDef, catalog: Catalog, nowUs: number): PreparedEndpoint {
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

  // Bind once with every parameter NULL: unknown names, sources and type errors fail now.
  const nullParams = new Map<string, string | null>();
  const binder = new Binder({ catalog, params: nullParams, declaredParams: null, nowUs });
  binder.bindTop(query);

  const ctes = (query.with ?? []).map((c) => {
    const b = new Binder({ catalog, params: nullParams, declaredParams: null, nowUs });
    const probe: Query = { kind: 'query', body: { kind: 'select', distinct: false, items: [{ kind: 'star' }], from: { kind: 'table', name: [c.name] } } };
    const plan = b.bindSandboxed(query, probe);
    return { name: c.name, columns: plan.cols.map((x) => x.name) };
  });
  return { def, query, params, paramNames, ctes };
}
