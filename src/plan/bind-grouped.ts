// The SELECT list, HAVING and ORDER BY of a grouped query (GROUP BY or aggregates): the aggregate
// node with its keys and aggregates, and each clause rewritten over its columns (else an error).

import type { Expr, OrderItem, Pos, Select } from '../sql/ast.ts';
import type { BExpr, Plan } from './bound.ts';
import { colRef } from './bind-name.ts';
import type { ExprCtx } from './expr-ctx.ts';
import { exprKey } from './expr-key.ts';
import { columnIds, mapChildren } from './expr-walk.ts';
import { originOf } from './origin-of.ts';
import { hasAggregate } from './has-aggregate.ts';
import { orderOutputIndex } from './bind-order.ts';
import type { SelectListItem } from './bind-select-items.ts';
import { fail, type QueryBinder } from './query-binder.ts';

/** An ORDER BY item bound; `output` when it names a select output. */
export interface OrderExpr { expr: BExpr; item: OrderItem; output?: number }

/** What binding a select's clauses yields: the plan so far and the select and ORDER BY expressions over it. */
export interface BoundClauses { plan: Plan; selectExprs: BExpr[]; orderExprs: OrderExpr[] }

export type ClauseCtx = (clause: string, aggMode?: 'forbid' | 'collect') => ExprCtx;

export function bindGrouped(b: QueryBinder, sel: Select, items: SelectListItem[], aliases: Map<string, Expr>, ctx: ClauseCtx,
  input: Plan, orderBy: OrderItem[] | undefined): BoundClauses {
  const keyAsts = (sel.groupBy ?? []).map((g) => groupByTarget(g, items, aliases));
  const keys = keyAsts.map((g) => b.exprs.bind(g, ctx('GROUP BY')));
  const aggs: BExpr[] = [];
  const aggIndex = new Map<string, number>();
  const keyIndex = new Map<string, number>();
  keys.forEach((k, i) => { if (!keyIndex.has(exprKey(k))) keyIndex.set(exprKey(k), i); });
  const keyCols = keys.map((k) => b.newCol(k.k === 'col' ? k.name : '$key', k.type, originOf(k)));
  const collect = (e: BExpr): BExpr => {
    const key = exprKey(e);
    const ki = keyIndex.get(key);
    if (ki !== undefined) return colRef(keyCols[ki]!);
    if (e.k === 'agg') {
      let ai = aggIndex.get(key);
      if (ai === undefined) { ai = aggs.length; aggs.push(e); aggIndex.set(key, ai); }
      return { k: 'col', id: -1 - ai, name: e.agg.name, type: e.type };
    }
    return mapChildren(e, collect);
  };
  // First pass: gather aggregates from every clause; columns are fixed up after the node exists.
  const rawSelect = items.map((it) => (it.bound ? it.bound : b.exprs.bind(it.ast!, { ...ctx('SELECT', 'collect'), aliases })));
  const collectedSelect = rawSelect.map(collect);
  const rawHaving = sel.having ? collect(b.exprs.bind(sel.having, { ...ctx('HAVING', 'collect'), aliases })) : null;
  const rawOrder = (orderBy ?? []).map((o): OrderExpr => {
    const out = orderOutputIndex(o, items);
    if (out !== null) return { expr: collectedSelect[out]!, item: o, output: out };
    return { expr: collect(b.exprs.bind(o.expr, ctx('ORDER BY', 'collect'))), item: o };
  });
  const aggCols = aggs.map((a) => b.newCol(a.k === 'agg' ? a.agg.name.toLowerCase() : 'agg', a.type));
  const allowed = new Set([...keyCols, ...aggCols].map((c) => c.id));
  const fixAggRefs = (e: BExpr): BExpr =>
    e.k === 'col' && e.id < 0 ? colRef(aggCols[-1 - e.id]!) : mapChildren(e, fixAggRefs);
  let plan: Plan = { k: 'aggregate', input, keys, aggs, cols: [...keyCols, ...aggCols] };
  const rewrite = (e: BExpr, clause: string, pos?: Pos): BExpr => {
    const fixed = fixAggRefs(e);
    for (const id of columnIds(fixed)) {
      if (!allowed.has(id)) {
        const name = findColName(fixed, id) ?? `#${id}`;
        fail('query_error', `${clause} expression references column ${name} which is neither grouped nor aggregated`, pos);
      }
    }
    return fixed;
  };
  const selectExprs = collectedSelect.map((e, i) => rewrite(e, 'SELECT list', items[i]!.pos));
  if (rawHaving) {
    plan = { k: 'filter', input: plan, pred: rewrite(rawHaving, 'HAVING clause', sel.having!.pos), cols: plan.cols };
  }
  const orderExprs = rawOrder.map((o) => ({ ...o, expr: o.output !== undefined ? selectExprs[o.output]! : rewrite(o.expr, 'ORDER BY clause', o.item.expr.pos) }));
  return { plan, selectExprs, orderExprs };
}

/** GROUP BY item → the AST expression it groups by (ordinal, select alias, or itself). */
function groupByTarget(g: Expr, items: SelectListItem[], aliases: Map<string, Expr>): Expr {
  if (g.kind === 'literal' && g.type === 'int') {
    const it = items[Number(g.value) - 1];
    if (!it || !it.ast) fail('query_error', `GROUP BY position ${String(g.value)} is out of range (1..${items.length})`, g.pos);
    return it.ast;
  }
  if (g.kind === 'ident' && g.parts.length === 1) {
    const a = aliases.get(g.parts[0]!.toLowerCase());
    if (a) {
      if (hasAggregate(a)) fail('query_error', `GROUP BY ${g.parts[0]} refers to an aggregate`, g.pos);
      return a;
    }
  }
  return g;
}

function findColName(e: BExpr, id: number): string | undefined {
  if (e.k === 'col' && e.id === id) return e.name;
  let found: string | undefined;
  mapChildren(e, (c) => { found ??= findColName(c, id); return c; });
  return found;
}
