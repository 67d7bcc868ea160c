// Canonical text of a bound expression (equal keys mean the same computation), with the ids that
// name subquery plans inside such keys.

import type { AggMods, BExpr } from './bound.ts';

/** Canonical text of an expression: equal keys mean the same computation over the same columns (as `col` names them). */
export function exprKey(e: BExpr, col: (id: number) => string = (id) => '#' + id): string {
  const k = (x: BExpr): string => exprKey(x, col);
  switch (e.k) {
    case 'const': return 'c:' + e.type + ':' + JSON.stringify(e.value);
    case 'col': return col(e.id);
    case 'field': return k(e.base) + '.' + e.name;
    case 'call': return (e.safe ? 'SAFE.' : '') + e.fn.name + '(' + e.args.map(k).join(',') + ')';
    case 'and': case 'or': return e.k + '(' + e.args.map(k).join(',') + ')';
    case 'not': return 'not(' + k(e.arg) + ')';
    case 'case': return 'case(' + e.whens.map((w) => k(w.when) + '=>' + k(w.then)).join(',') + ';' + k(e.else) + ')';
    case 'cast': return (e.safe ? 'safe_cast(' : 'cast(') + k(e.arg) + ' as ' + e.to + ')';
    case 'in': return (e.not ? 'notin(' : 'in(') + k(e.arg) + ';' + e.list.map(k).join(',') + ')';
    case 'inArray': return (e.not ? 'notinarr(' : 'inarr(') + k(e.arg) + ';' + k(e.array) + ')';
    case 'subquery': return 'subq@' + subqueryIds.get(e.plan);
    case 'anyElement': return 'any(' + k(e.array) + ';' + col(e.elem.id) + ':' + k(e.pred) + ')';
    case 'subscript': return k(e.base) + '[' + e.mode + ':' + k(e.index) + ']';
    case 'array': return '[' + e.elements.map(k).join(',') + ']';
    case 'struct': return 'struct(' + e.fields.map((f) => f.name + ':' + k(f.expr)).join(',') + ')';
    case 'agg': return (e.distinct ? 'distinct ' : '') + e.agg.name + '(' + (e.star ? '*' : e.args.map(k).join(',')) + (e.mods ? modsKey(e.mods, k) : '') + ')';
  }
}

/** An aggregate's modifiers in its key, so `ARRAY_AGG(x)` and `ARRAY_AGG(x ORDER BY y)` never share a column or plan. */
function modsKey(m: AggMods, k: (e: BExpr) => string): string {
  const order = m.order.map((o) => k(o.expr) + (o.desc ? ' desc' : ' asc') + (o.nullsFirst ? ' nf' : ' nl')).join(',');
  return (m.ignoreNulls ? ' ignorenulls' : '') + (order ? ' orderby ' + order : '') + (m.limit !== null ? ' limit ' + m.limit : '');
}

const subqueryIds = new WeakMap<object, number>();
let nextSubqueryId = 1;
export function registerSubqueryPlan(plan: object): void {
  if (!subqueryIds.has(plan)) subqueryIds.set(plan, nextSubqueryId++);
}
