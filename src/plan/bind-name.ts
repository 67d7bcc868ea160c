// Name resolution with BigQuery's rules: range variables before columns, dotted paths into records,
// innermost scope first; row subscripts (`v[0]`), field access, and references to bound columns.

import type { Expr, Ident, Pos } from '../sql/ast.ts';
import type { BExpr, ColInfo } from './bound.ts';
import { foldNode } from './fold.ts';
import { columnsNamed, type FromScope, type RangeVar } from './scope.ts';
import { notePin } from './param-trace.ts';
import { recordShapeOf } from './bind-checks.ts';
import { failAt } from './bind-error.ts';
import type { ExprBind, ExprCtx } from './expr-ctx.ts';

/** The start of the error a correlated reference fails with (EXISTS over UNNEST recognises it). */
export const CORRELATED = 'Correlated subqueries are not supported';

/** Resolves a dotted name by `FromScope.resolve`'s rules, innermost scope first, then outer scopes. */
export function bindIdent(e: Ident, ctx: ExprCtx, nowUs: number): BExpr {
  const [first, ...rest] = e.parts as [string, ...string[]];
  for (let scope: FromScope | null = ctx.scope; scope; scope = scope.parent) {
    const hit = scope.resolve(first);
    if (hit.k === 'none') continue;
    if (hit.k === 'ambiguous') {
      failAt('ambiguous_name', `Column name ${first} is ambiguous: it is a ${hit.fields ? 'column or field' : 'column'} of ${hit.sources.join(' and ')}; qualify it, e.g. ${hit.sources[0]}.${first}`, e.pos);
    }
    if (scope !== ctx.scope && scope !== ctx.lateral) correlated(e);
    if (hit.k === 'var') return fromVar(hit.v, rest, e);
    let out: BExpr = hit.k === 'column' ? colRef(hit.col) : bindField(colRef(hit.v.cols[0]!), hit.field, e.pos);
    for (const f of rest) out = bindField(out, f, e.pos);
    return out;
  }
  if (rest.length === 0) {
    const upper = first.toUpperCase();
    if (upper === 'CURRENT_TIMESTAMP') return { k: 'const', value: nowUs, type: 'TIMESTAMP', clock: 'affine' };
  }
  const known = ctx.scope.allCols().map((c) => c.name);
  const hint = known.length ? `; columns here: ${[...new Set(known)].slice(0, 20).join(', ')}` : '';
  failAt('unknown_name', `Unrecognized name: ${e.parts.join('.')}${hint}`, e.pos);
}

function correlated(e: Ident): never {
  failAt('query_error', `${CORRELATED}: ${e.parts.join('.')} refers to the enclosing query (only EXISTS over the UNNEST of its array runs)`, e.pos);
}

function fromVar(v: RangeVar, rest: string[], e: Ident): BExpr {
  if (v.kind === 'value') {
    let out: BExpr = colRef(v.cols[0]!);
    for (const f of rest) out = bindField(out, f, e.pos);
    return out;
  }
  if (rest.length === 0) {
    return { k: 'struct', fields: v.cols.map((c) => ({ name: c.name, expr: colRef(c) })), type: 'STRUCT' };
  }
  const [colName, ...fields] = rest as [string, ...string[]];
  const col = columnsNamed(v, colName.toLowerCase())[0];
  if (!col) failAt('unknown_name', `Name ${colName} not found inside ${v.display}; its columns: ${v.cols.map((c) => c.name).join(', ')}`, e.pos);
  let out: BExpr = colRef(col);
  for (const f of fields) out = bindField(out, f, e.pos);
  return out;
}

/** `base.name`: a field of a record (an array of records must be unnested first). */
export function bindField(base: BExpr, name: string, pos: Pos | undefined): BExpr {
  const shape = base.type === 'ANY' ? recordShapeOf(base) : undefined;
  if (shape === 'ARRAY') {
    const what = base.k === 'field' ? base.name : 'an array';
    failAt('query_error', `Cannot access field ${name} on a value with type ARRAY: ${what} is a REPEATED RECORD (array); unnest it first (CROSS JOIN UNNEST(<alias>.${what}) AS x, then x.${name})`, pos);
  }
  if (shape !== undefined && shape !== 'STRUCT') failAt('query_error', `Cannot access field ${name} on a value with type ${shape}`, pos);
  if (base.type === 'ARRAY') {
    const what = base.k === 'col' ? base.name : 'an array';
    failAt('query_error', `Cannot access field ${name} on ${what}, a REPEATED RECORD (array); unnest it first, e.g. CROSS JOIN UNNEST(${what}) AS x ... x.${name}`, pos);
  }
  if (base.type !== 'ANY' && base.type !== 'STRUCT' && base.type !== 'NULL') {
    failAt('query_error', `Cannot access field ${name} on a value of type ${base.type}`, pos);
  }
  return foldNode({ k: 'field', base, name, type: 'ANY' });
}

/** `base[i]`; on a table range variable, its i-th column (`dates[0]`), for a constant index. */
export function bindSubscript(x: ExprBind, e: Extract<Expr, { kind: 'subscript' }>, ctx: ExprCtx): BExpr {
  const mode = e.mode === 'plain' ? 'offset' : e.mode;
  if (e.base.kind === 'ident' && e.base.parts.length === 1) {
    const v = ctx.scope.findVar(e.base.parts[0]!);
    if (v && v.kind === 'table') {
      // struct subscript on a row: `dates[0]` is the first column of range variable `dates`
      const idx = x.bind(e.index, ctx);
      notePin(idx);
      if (idx.k !== 'const' || typeof idx.value !== 'number' || idx.clock) failAt('query_error', 'A row subscript needs a constant index', e.pos);
      const i = (idx.value as number) - (mode === 'ordinal' || mode === 'safe_ordinal' ? 1 : 0);
      const col = v.cols[i];
      if (!col) failAt('query_error', `Field index ${idx.value} is out of bounds for ${v.display} (${v.cols.length} columns)`, e.pos);
      return colRef(col);
    }
  }
  const base = x.bind(e.base, ctx);
  return { k: 'subscript', base, index: x.bind(e.index, ctx), mode, type: 'ANY' };
}

export function colRef(c: ColInfo): BExpr {
  if (c.constant?.src) return { ...c.constant.src, type: c.type };
  if (c.constant) return c.constant.clock ? { k: 'const', value: c.constant.value, type: c.type, clock: c.constant.clock } : { k: 'const', value: c.constant.value, type: c.type };
  return c.origin ? { k: 'col', id: c.id, name: c.name, type: c.type, origin: c.origin } : { k: 'col', id: c.id, name: c.name, type: c.type };
}

/** BigQuery's implicit column name of a select expression: the last part of a path, else none. */
export function implicitName(e: Expr): string | undefined {
  if (e.kind === 'ident') return e.parts[e.parts.length - 1];
  if (e.kind === 'field') return e.name;
  return undefined;
}
