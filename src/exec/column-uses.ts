// How a plan reads each column: every `col.field` read is noted by field name, every other read
// (whole value, pass-through to output, DISTINCT, set operations) as '*'. Physical rewrites that
// replace a column by a cheaper stand-in (hot columns) consult this to prove nothing else reads it.

import type { BExpr, Plan } from '../plan/bound.ts';

export type ColumnUses = Map<number, string[]>;

export function columnUses(root: Plan): ColumnUses {
  const uses: ColumnUses = new Map();
  const note = (id: number, how: string): void => {
    const list = uses.get(id);
    if (list) list.push(how);
    else uses.set(id, [how]);
  };
  const expr = (e: BExpr): void => {
    switch (e.k) {
      case 'col': note(e.id, '*'); return;
      case 'field':
        if (e.base.k === 'col') note(e.base.id, e.name);
        else expr(e.base);
        return;
      case 'const': return;
      case 'call': case 'and': case 'or': e.args.forEach(expr); return;
      case 'agg': e.args.forEach(expr); e.mods?.order.forEach((o) => expr(o.expr)); return;
      case 'not': case 'cast': expr(e.arg); return;
      case 'case': for (const w of e.whens) { expr(w.when); expr(w.then); } expr(e.else); return;
      case 'in': expr(e.arg); e.list.forEach(expr); return;
      case 'inArray': expr(e.arg); expr(e.array); return;
      case 'anyElement': expr(e.array); expr(e.pred); return;
      case 'subquery': if (e.arg) expr(e.arg); plan(e.plan); return;
      case 'subscript': expr(e.base); expr(e.index); return;
      case 'array': e.elements.forEach(expr); return;
      case 'struct': for (const f of e.fields) expr(f.expr); return;
    }
  };
  const whole = (p: Plan): void => { for (const c of p.cols) note(c.id, '*'); };
  const plan = (p: Plan): void => {
    switch (p.k) {
      case 'scan': case 'rows': return;
      case 'values': p.rows.forEach((r) => r.forEach(expr)); return;
      case 'filter': expr(p.pred); plan(p.input); return;
      case 'project': p.exprs.forEach(expr); plan(p.input); return;
      case 'unnest': expr(p.array); plan(p.input); return;
      case 'join': if (p.on) expr(p.on); plan(p.left); plan(p.right); return;
      case 'aggregate': p.keys.forEach(expr); p.aggs.forEach(expr); plan(p.input); return;
      case 'sort': for (const k of p.keys) expr(k.expr); plan(p.input); return;
      case 'limit': plan(p.input); return;
      case 'distinct': whole(p.input); plan(p.input); return;
      case 'setop': for (const i of p.inputs) { whole(i); plan(i); } return;
    }
  };
  whole(root);
  plan(root);
  return uses;
}
