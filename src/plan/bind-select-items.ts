// The SELECT list as items to bind: each expression with its (alias or implicit) name, and each
// `*` / `v.*` (with EXCEPT and REPLACE) expanded to the columns it lists.

import type { Expr, Pos, SelectItem } from '../sql/ast.ts';
import type { BExpr } from './bound.ts';
import { bindField, colRef, implicitName } from './bind-name.ts';
import type { FromScope, RangeVar } from './scope.ts';
import { fail } from './query-binder.ts';

/** One select-list item: an expression still to bind, or a column a `*` already bound. */
export interface SelectListItem { ast?: Expr; bound?: BExpr; name?: string; pos?: Pos }

export function expandStars(items: SelectItem[], scope: FromScope): SelectListItem[] {
  const out: SelectListItem[] = [];
  for (const it of items) {
    if (it.kind === 'expr') {
      const name = it.alias ?? implicitName(it.expr);
      out.push(name !== undefined ? { ast: it.expr, name, ...(it.pos ? { pos: it.pos } : {}) } : { ast: it.expr, ...(it.pos ? { pos: it.pos } : {}) });
      continue;
    }
    let vars: RangeVar[];
    if (it.qualifier) {
      const v = scope.findVar(it.qualifier.join('.'));
      if (!v) fail('unknown_name', `Unrecognized name: ${it.qualifier.join('.')}`, it.pos);
      vars = [v];
    } else {
      vars = scope.vars;
      if (vars.length === 0) fail('query_error', 'SELECT * needs a FROM clause', it.pos);
    }
    const except = new Set((it.except ?? []).map((e) => e.toLowerCase()));
    const replace = new Map((it.replace ?? []).map((r) => [r.alias.toLowerCase(), r.expr]));
    const seen = new Set<string>();
    for (const v of vars) {
      // `a.*` lists all of a's columns; a bare `*` leaves out those a JOIN USING merged.
      for (const c of starColumns(v, !it.qualifier, it.pos)) {
        const l = c.name.toLowerCase();
        if (except.has(l)) { seen.add(l); continue; }
        const rep = replace.get(l);
        out.push(rep ? { ast: rep, name: c.name } : { bound: c.bound, name: c.name });
      }
    }
    for (const e of except) if (!seen.has(e)) fail('unknown_name', `Column ${e} in SELECT * EXCEPT list does not exist`, it.pos);
  }
  return out;
}

/**
 * What `*` (or `v.*`) lists for one range variable: a table's columns (a bare `*` leaves out those a
 * JOIN USING merged); an UNNEST of records of known fields, each field (BigQuery expands a value
 * table of STRUCT); any other UNNEST, its one value.
 */
function starColumns(v: RangeVar, bare: boolean, pos: Pos | undefined): { name: string; bound: BExpr }[] {
  if (v.kind === 'value') {
    const value = colRef(v.cols[0]!);
    if (!v.fields) return [{ name: v.display, bound: value }];
    return v.fields.map((f) => ({ name: f, bound: bindField(value, f, pos) }));
  }
  return v.cols.filter((c) => !(bare && v.hidden?.has(c.id)) && !c.name.startsWith('$')).map((c) => ({ name: c.name, bound: colRef(c) }));
}
