// Shared fixtures and AST builders for the LQL tests: CTE lists shaped like logs.all's and
// usage.api-counts', and small constructors so expectations read like the SQL they stand for.

import { expect } from 'vitest';
import { compileLql } from '../../src/lql/compile.ts';
import { RingqlError } from '../../src/core/errors.ts';
import type { Expr, FromItem, Ident, Literal, Query, Select } from '../../src/sql/ast.ts';

const LOG_COLUMNS = ['timestamp', 'id', 'event_message', 'metadata'];
export const LOGS_ALL_CTES = ['edge_logs', 'postgres_logs', 'function_edge_logs', 'function_logs', 'auth_logs',
  'realtime_logs', 'storage_logs', 'rest_logs', 'pooler_logs'].map((name) => ({ name, columns: LOG_COLUMNS }));
export const ONE_CTE = [{ name: 'edge_logs', columns: [...LOG_COLUMNS, 'project'] }];
export const USAGE_CTES = [
  { name: 'dates', columns: ['start'] },
  { name: 'chart_counts', columns: ['timestamp', 'total_rest_requests', 'total_storage_requests', 'total_auth_requests', 'total_realtime_requests'] },
];

/** Compiles against the single-CTE list unless told otherwise. */
export function lql(text: string, ctes = ONE_CTE): Query {
  return compileLql(text, ctes);
}
export function select(q: Query): Select {
  if (q.body.kind !== 'select') throw new Error('expected a SELECT body');
  return q.body;
}
/** The WHERE clause flattened into its AND-ed conjuncts, in order. */
export function conjuncts(q: Query): Expr[] {
  const out: Expr[] = [];
  const walk = (e: Expr | undefined): void => {
    if (!e) return;
    if (e.kind === 'binary' && e.op === 'AND') { walk(e.left); walk(e.right); } else out.push(e);
  };
  walk(select(q).where);
  return out;
}
/** The single WHERE predicate of a one-term query. */
export function onlyWhere(text: string, ctes = ONE_CTE): Expr {
  const c = conjuncts(lql(text, ctes));
  expect(c).toHaveLength(1);
  return c[0]!;
}
/** FROM as a flat list: the table, then each join as `TYPE alias <- array`. */
export function fromChain(q: Query): string[] {
  const out: string[] = [];
  const walk = (f: FromItem): void => {
    if (f.kind === 'join') {
      walk(f.left);
      const r = f.right;
      if (r.kind !== 'unnest' || r.expr.kind !== 'ident') throw new Error('expected UNNEST(ident) on the right');
      const on = f.on ? ` ON ${JSON.stringify((f.on as Literal).value)}` : '';
      out.push(`${f.type} ${r.alias} <- ${r.expr.parts.join('.')}${on}`);
    } else if (f.kind === 'table') out.push(`${f.name.join('.')} AS ${f.alias}`);
    else throw new Error(`unexpected FROM item ${f.kind}`);
  };
  walk(select(q).from!);
  return out;
}
/** Select items as `path [AS alias]` strings (identifiers only; other expressions as their kind). */
export function itemNames(q: Query): string[] {
  return select(q).items.map((it) => {
    if (it.kind !== 'expr') return '*';
    const e = it.expr.kind === 'ident' ? it.expr.parts.join('.') : it.expr.kind;
    return it.alias ? `${e} AS ${it.alias}` : e;
  });
}

export const id = (...parts: string[]): Ident => ({ kind: 'ident', parts });
export const str = (value: string): Literal => ({ kind: 'literal', type: 'string', value });
export const int = (value: number): Literal => ({ kind: 'literal', type: 'int', value });
export const float = (value: number): Literal => ({ kind: 'literal', type: 'float', value });
export const bool = (value: boolean): Literal => ({ kind: 'literal', type: 'bool', value });
export const ts = (value: string): Literal => ({ kind: 'literal', type: 'timestamp', value });
export const call = (name: string, ...args: Expr[]): Expr => ({ kind: 'call', name, args });
export const bin = (op: '=' | '>' | '>=' | '<' | '<=', left: Expr, right: Expr): Expr => ({ kind: 'binary', op, left, right });
export const not = (operand: Expr): Expr => ({ kind: 'unary', op: 'NOT', operand });

/** Runs fn, expects a RingqlError, returns it. */
export function errorOf(fn: () => unknown): RingqlError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RingqlError);
    return e as RingqlError;
  }
  throw new Error('expected an error');
}
/** Expects an LQL syntax error at the given 1-based column. */
export function expectSyntaxError(text: string, column: number, message?: RegExp): void {
  const e = errorOf(() => lql(text));
  expect(e.code).toBe('syntax_error');
  expect(e.details).toMatchObject({ line: 1, column });
  if (message) expect(e.message).toMatch(message);
}
