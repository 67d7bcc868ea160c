// Binds one SELECT: FROM, WHERE, the select list (grouped or not), HAVING, DISTINCT and ORDER BY,
// ending in the projection of its outputs (plus hidden ORDER BY columns, dropped after the sort).

import type { Expr, OrderItem, Select } from '../sql/ast.ts';
import type { BExpr, Plan } from './bound.ts';
import { colRef } from './bind-name.ts';
import { expectBool } from './bind-checks.ts';
import type { ExprCtx } from './expr-ctx.ts';
import { exprKey } from './expr-key.ts';
import { FromScope, type CteScope } from './scope.ts';
import { hasAggregate } from './has-aggregate.ts';
import { bindFrom } from './bind-from.ts';
import { expandStars, type SelectListItem } from './bind-select-items.ts';
import { requireOrderable } from './orderable.ts';
import { orderOutputIndex } from './bind-order.ts';
import { bindGrouped, type BoundClauses, type OrderExpr } from './bind-grouped.ts';
import { fail, type QueryBinder } from './query-binder.ts';

export function bindSelect(b: QueryBinder, sel: Select, ctes: CteScope, trusted: boolean, outer: FromScope | null, orderBy: OrderItem[] | undefined): Plan {
  const scope = new FromScope(outer);
  let plan: Plan = sel.from ? bindFrom(b, sel.from, scope, ctes, trusted) : { k: 'values', rows: [[]], cols: [] };
  const ctx = (clause: string, aggMode: 'forbid' | 'collect' = 'forbid'): ExprCtx => ({ scope, ctes, trusted, aggMode, clause });

  if (sel.where) {
    const pred = expectBool(b.exprs.bind(sel.where, ctx('WHERE')), 'WHERE', sel.where.pos);
    plan = { k: 'filter', input: plan, pred, cols: plan.cols };
  }
  if (sel.qualify) fail('query_error', 'QUALIFY needs window functions, which are not supported', sel.qualify.pos);

  const items = expandStars(sel.items, scope);
  const aliases = new Map<string, Expr>();
  for (const it of items) if (it.name && it.ast) aliases.set(it.name.toLowerCase(), it.ast);

  const grouped = !!(sel.groupBy && sel.groupBy.length) || items.some((i) => i.ast && hasAggregate(i.ast)) ||
    (sel.having ? hasAggregate(sel.having) : false) || (orderBy ?? []).some((o) => hasAggregate(o.expr));
  const bound = grouped ? bindGrouped(b, sel, items, aliases, ctx, plan, orderBy) : bindUngrouped(b, sel, items, ctx, plan, orderBy);
  return projectAndSort(b, sel, items, bound);
}

function bindUngrouped(b: QueryBinder, sel: Select, items: SelectListItem[], ctx: (clause: string) => ExprCtx, plan: Plan,
  orderBy: OrderItem[] | undefined): BoundClauses {
  if (sel.having) fail('query_error', 'HAVING needs GROUP BY or an aggregate', sel.having.pos);
  const selectExprs = items.map((it) => it.bound ?? b.exprs.bind(it.ast!, ctx('SELECT')));
  const orderExprs = (orderBy ?? []).map((o): OrderExpr => {
    const out = orderOutputIndex(o, items);
    if (out !== null) return { expr: selectExprs[out]!, item: o, output: out };
    return { expr: b.exprs.bind(o.expr, ctx('ORDER BY')), item: o };
  });
  return { plan, selectExprs, orderExprs };
}

/** Projection: the select list plus hidden columns for ORDER BY expressions not in it; then DISTINCT and the sort. */
function projectAndSort(b: QueryBinder, sel: Select, items: SelectListItem[], bound: BoundClauses): Plan {
  const { selectExprs, orderExprs } = bound;
  let plan = bound.plan;
  let anon = 0;
  const outCols = selectExprs.map((e, i) => {
    const it = items[i]!;
    const name = it.name ?? `f${anon++}_`;
    return b.newCol(name, e.type, e.k === 'col' ? e.origin : undefined);
  });
  const projExprs = [...selectExprs];
  const projCols = [...outCols];
  const sortKeys: { expr: BExpr; desc: boolean; nullsFirst: boolean }[] = [];
  for (const o of orderExprs) {
    requireOrderable(o.expr.type, 'ORDER BY', o.item.expr.pos);
    let idx = o.output ?? projExprs.findIndex((p) => exprKey(p) === exprKey(o.expr));
    if (idx < 0) {
      if (sel.distinct) fail('query_error', 'ORDER BY clause expression references a column which is not visible after SELECT DISTINCT', o.item.expr.pos);
      idx = projExprs.length;
      projExprs.push(o.expr);
      projCols.push(b.newCol('$order', o.expr.type, o.expr.k === 'col' ? o.expr.origin : undefined));
    }
    const desc = o.item.desc;
    sortKeys.push({ expr: colRef(projCols[idx]!), desc, nullsFirst: o.item.nulls ? o.item.nulls === 'first' : !desc });
  }
  plan = { k: 'project', input: plan, exprs: projExprs, cols: projCols };
  if (sel.distinct) plan = { k: 'distinct', input: plan, cols: plan.cols };
  if (sortKeys.length) plan = { k: 'sort', input: plan, keys: sortKeys, cols: plan.cols };
  if (projCols.length > outCols.length) {
    plan = { k: 'project', input: plan, exprs: outCols.map(colRef), cols: outCols.map((c) => b.newCol(c.name, c.type, c.origin)) };
  }
  return plan;
}
