// Binds the one correlated subquery shape the engine runs: EXISTS over the UNNEST of the current
// row's array (`EXISTS(SELECT * FROM UNNEST(t.tags) AS x WHERE REGEXP_CONTAINS(x, 'b'))`, the
// reference's LQL `:@>~`), as a per-row predicate over the elements (BExpr `anyElement`).

import { RingqlError } from '../core/errors.ts';
import type { Expr, Query, SelectItem } from '../sql/ast.ts';
import type { BExpr, ColInfo } from './bound.ts';
import type { SqlType } from '../core/types.ts';
import { FromScope, type CteScope } from './scope.ts';
import { elementFields } from './unnest-fields.ts';

/** What binding needs from the expression binder (kept narrow: no import cycle with bind-expr). */
export interface ExistsUnnestHost {
  bind(e: Expr, ctx: LateralCtx): BExpr;
  expectBool(e: BExpr, what: string, pos: Expr['pos']): BExpr;
  newCol(name: string, type: SqlType): ColInfo;
}

/** The ExprCtx fields used here; `lateral` is the enclosing scope whose columns the predicate may read. */
export interface LateralCtx {
  scope: FromScope;
  ctes: CteScope;
  trusted: boolean;
  aggMode: 'forbid' | 'collect';
  clause: string;
  lateral?: FromScope;
}

export interface UnnestShape {
  /** `FROM alias.path`: the generic binder cannot read it (it takes it for a table name). */
  path: boolean;
  array: Expr;
  alias: string | undefined;
  where: Expr | undefined;
  items: SelectItem[];
}

/**
 * `SELECT … FROM UNNEST(expr) [AS x] [WHERE …]` or `SELECT … FROM alias.path [AS x] [WHERE …]` (a path
 * over an enclosing query's range variable), with nothing else (no WITH OFFSET, GROUP BY, DISTINCT,
 * ORDER BY, LIMIT, WITH); else null.
 */
export function unnestShape(q: Query, outer: FromScope): UnnestShape | null {
  const s = q.body;
  if (q.with?.length || q.orderBy?.length || q.limit || q.offset) return null;
  if (s.kind !== 'select' || s.distinct || s.groupBy?.length || s.having || s.qualify || !s.from) return null;
  const f = s.from;
  if (f.kind === 'unnest') return f.offsetAlias ? null : { path: false, array: f.expr, alias: f.alias, where: s.where, items: s.items };
  if (f.kind === 'table' && f.name.length >= 2 && !f.quoted?.some(Boolean) && isOuterVar(outer, f.name[0]!)) {
    const array: Expr = { kind: 'ident', parts: f.name, ...(f.pos ? { pos: f.pos } : {}) };
    return { path: true, array, alias: f.alias ?? f.name[f.name.length - 1], where: s.where, items: s.items };
  }
  return null;
}

function isOuterVar(scope: FromScope | null, name: string): boolean {
  for (let s = scope; s; s = s.parent) if (s.findVar(name)) return true;
  return false;
}

/** The per-row predicate of an EXISTS of the UNNEST shape (see unnestShape). */
export function bindExistsOverUnnest(host: ExistsUnnestHost, shape: UnnestShape, ctx: LateralCtx): BExpr {
  const array = host.bind(shape.array, { ...ctx, aggMode: 'forbid', clause: 'UNNEST' });
  if (array.type !== 'ARRAY' && array.type !== 'ANY' && array.type !== 'NULL') {
    throw new RingqlError('query_error', `UNNEST needs an array, got ${array.type}`);
  }
  const name = shape.alias ?? '$unnest';
  const elem = host.newCol(name, 'ANY');
  const scope = new FromScope(ctx.scope);
  const fields = elementFields(array);
  scope.add({ names: shape.alias ? [shape.alias.toLowerCase()] : [], display: name, kind: 'value', cols: [elem], ...(fields ? { fields } : {}) });
  const inner: LateralCtx = { scope, ctes: ctx.ctes, trusted: ctx.trusted, aggMode: 'forbid', clause: 'WHERE', lateral: ctx.scope };
  // The select list decides nothing under EXISTS, but its names must still resolve.
  for (const it of shape.items) if (it.kind === 'expr') host.bind(it.expr, { ...inner, clause: 'SELECT' });
  const pred: BExpr = shape.where
    ? host.expectBool(host.bind(shape.where, inner), 'WHERE', shape.where.pos)
    : { k: 'const', value: true, type: 'BOOL' };
  return { k: 'anyElement', array, elem, pred, type: 'BOOL' };
}
