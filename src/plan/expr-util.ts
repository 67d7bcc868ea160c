// Small structural helpers over bound expressions: canonical keys, conjunct splitting, column
// references, origins (which event path a value reads) and a generic child mapper.

import type { BExpr, Origin } from './bound.ts';

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
    case 'agg': return (e.distinct ? 'distinct ' : '') + e.agg.name + '(' + (e.star ? '*' : e.args.map(k).join(',')) + ')';
  }
}

const subqueryIds = new WeakMap<object, number>();
let nextSubqueryId = 1;
export function registerSubqueryPlan(plan: object): void {
  if (!subqueryIds.has(plan)) subqueryIds.set(plan, nextSubqueryId++);
}

export function conjuncts(e: BExpr): BExpr[] {
  return e.k === 'and' ? e.args.flatMap(conjuncts) : [e];
}

export function andAll(parts: BExpr[]): BExpr | null {
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : { k: 'and', args: parts, type: 'BOOL' };
}

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
    case 'agg': return { ...e, args: e.args.map(f) };
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

/** Which event path an expression reads directly, if it is a column or a field chain over one. */
export function originOf(e: BExpr): Origin | undefined {
  if (e.k === 'col') return e.origin;
  if (e.k === 'field') {
    const b = originOf(e.base);
    if (b && b.element) return { scan: b.scan, path: [...b.path, e.name], element: false };
  }
  return undefined;
}
