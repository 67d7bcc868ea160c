// Generic walks over bound expressions: a child mapper, a search, and the column ids an
// expression reads (none of them enter subquery plans).

import type { BExpr } from './bound.ts';

/** Applies `f` to each direct child expression (not into subquery plans). */
export function mapChildren(e: BExpr, f: (c: BExpr) => BExpr): BExpr {
  switch (e.k) {
    case 'const': case 'col': case 'subquery': return e.k === 'subquery' && e.arg ? { ...e, arg: f(e.arg) } : e;
    case 'field': return { ...e, base: f(e.base) };
    case 'call': return { ...e, args: e.args.map(f) };
    case 'and': case 'or': return { ...e, args: e.args.map(f) };
    case 'not': return { ...e, arg: f(e.arg) };
    case 'case': return { ...e, whens: e.whens.map((w) => ({ when: f(w.when), then: f(w.then) })), else: f(e.else) };
    case 'cast': return { ...e, arg: f(e.arg) };
    case 'in': return { ...e, arg: f(e.arg), list: e.list.map(f) };
    case 'inArray': return { ...e, arg: f(e.arg), array: f(e.array) };
    case 'anyElement': return { ...e, array: f(e.array), pred: f(e.pred) };
    case 'subscript': return { ...e, base: f(e.base), index: f(e.index) };
    case 'array': return { ...e, elements: e.elements.map(f) };
    case 'struct': return { ...e, fields: e.fields.map((x) => ({ name: x.name, expr: f(x.expr) })) };
    case 'agg': return e.mods ? { ...e, args: e.args.map(f), mods: { ...e.mods, order: e.mods.order.map((o) => ({ ...o, expr: f(o.expr) })) } } : { ...e, args: e.args.map(f) };
  }
}

export function someNode(e: BExpr, pred: (x: BExpr) => boolean): boolean {
  if (pred(e)) return true;
  let found = false;
  mapChildren(e, (c) => { if (!found && someNode(c, pred)) found = true; return c; });
  return found;
}

/** Column ids an expression reads (outside subqueries; an anyElement's own element is not one). */
export function columnIds(e: BExpr, out = new Set<number>()): Set<number> {
  if (e.k === 'col') out.add(e.id);
  else if (e.k === 'anyElement') {
    columnIds(e.array, out);
    for (const id of columnIds(e.pred)) if (id !== e.elem.id) out.add(id);
  } else mapChildren(e, (c) => { columnIds(c, out); return c; });
  return out;
}
