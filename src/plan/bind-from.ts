// Binds FROM items to plans and range variables: sources, CTE references, subqueries, UNNEST
// chains, and joins (ON, USING with BigQuery's merged columns). Untrusted parts may read only CTEs.

import type { Expr, FromItem, Pos } from '../sql/ast.ts';
import type { BExpr, ColInfo, Plan, ScanPlan } from './bound.ts';
import { colRef } from './bind-name.ts';
import { cmp } from './bind-operators.ts';
import { callFn } from './bind-call.ts';
import { expectBool } from './bind-checks.ts';
import { originOf } from './origin-of.ts';
import { FromScope, type CteScope, type RangeVar } from './scope.ts';
import { commonType } from '../core/types.ts';
import { elementFields } from './unnest-fields.ts';
import { noteTruth } from './param-trace.ts';
import { constantColumns } from './constant-columns.ts';
import { fail, type QueryBinder } from './query-binder.ts';

export function bindFrom(b: QueryBinder, item: FromItem, scope: FromScope, ctes: CteScope, trusted: boolean): Plan {
  switch (item.kind) {
    case 'table':
      return bindTable(b, item, scope, ctes, trusted);
    case 'subqueryRef': {
      const plan = b.bindQuery(item.query, ctes, trusted, null);
      const cols = constantColumns(plan) ?? plan.cols.filter((c) => !c.name.startsWith('$'));
      scope.add({ names: item.alias ? [item.alias.toLowerCase()] : [], display: item.alias ?? '(subquery)', kind: 'table', cols });
      return plan;
    }
    case 'unnest':
      return bindUnnest(b, item.expr, item.alias, item.offsetAlias, { k: 'values', rows: [[]], cols: [] }, scope, ctes, trusted, false, undefined, item.pos);
    case 'join':
      return bindJoin(b, item, scope, ctes, trusted);
  }
}

function bindTable(b: QueryBinder, item: Extract<FromItem, { kind: 'table' }>, scope: FromScope, ctes: CteScope, trusted: boolean): Plan {
  const full = item.name.join('.');
  if (item.name.length === 1) {
    const entry = ctes.lookup(item.name[0]!);
    if (entry) {
      const plan = b.bindQuery(entry.cte.query, entry.scope, entry.trusted, null);
      const alias = item.alias ?? entry.cte.name;
      const cols = constantColumns(plan) ?? plan.cols.filter((c) => !c.name.startsWith('$'));
      scope.add({ names: [alias.toLowerCase()], display: alias, kind: 'table', cols });
      return plan;
    }
  }
  const source = b.catalog.source(full);
  if (!source || !trusted) {
    if (!trusted) {
      fail('sandbox_violation', `Table not found in CTE: (${full}). A sandboxed query may read only the endpoint's CTEs: ${ctes.names().join(', ') || '(none)'}`, item.pos, { table: full });
    }
    fail('unknown_name', `Table not found: ${full}; sources: ${b.catalog.sourceNames().join(', ')}`, item.pos, { table: full });
  }
  const scan: ScanPlan = { k: 'scan', source, alias: item.alias ?? full, cols: [], order: 'desc', scanId: b.newScanId() };
  scan.cols = source.columns().map((name) => b.newCol(name, source.columnType(name), { scan, path: [name], element: false }));
  const names = item.alias ? [item.alias.toLowerCase()] : [...new Set([full.toLowerCase(), full.split('.').pop()!.toLowerCase()])];
  scope.add({ names, display: item.alias ?? full, kind: 'table', cols: scan.cols });
  return scan;
}

function bindJoin(b: QueryBinder, j: Extract<FromItem, { kind: 'join' }>, scope: FromScope, ctes: CteScope, trusted: boolean): Plan {
  const left = bindFrom(b, j.left, scope, ctes, trusted);
  const r = j.right;
  const isPathUnnest = r.kind === 'table' && r.name.length >= 2 && !!scope.findVar(r.name[0]!);
  if (r.kind === 'unnest' || isPathUnnest) {
    if (j.type === 'RIGHT' || j.type === 'FULL') fail('query_error', `${j.type} JOIN with UNNEST is not supported`, j.pos);
    const expr: Expr = r.kind === 'unnest' ? r.expr : { kind: 'ident', parts: (r as { name: string[] }).name, ...(r.pos ? { pos: r.pos } : {}) };
    const alias = r.kind === 'unnest' ? r.alias : (r as { alias?: string }).alias ?? (r as { name: string[] }).name.at(-1);
    const offsetAlias = r.kind === 'unnest' ? r.offsetAlias : undefined;
    return bindUnnest(b, expr, alias, offsetAlias, left, scope, ctes, trusted, j.type === 'LEFT', j.on, j.pos);
  }
  const rightScope = new FromScope(null);
  const right = bindFrom(b, r, rightScope, ctes, trusted);
  for (const v of rightScope.vars) scope.add(v);
  let on: BExpr | undefined;
  const type = j.type === 'COMMA' || j.type === 'CROSS' ? 'cross' : (j.type.toLowerCase() as 'inner' | 'left' | 'right' | 'full');
  let using: UsingColumns | null = null;
  if (j.using) {
    using = usingColumns(b, j.using, scope.vars.slice(0, scope.vars.length - rightScope.vars.length), rightScope.vars, type, j.pos);
    on = using.on;
  } else if (j.on) {
    on = expectBool(b.exprs.bind(j.on, { scope, ctes, trusted, aggMode: 'forbid', clause: 'JOIN ON' }), 'JOIN ON', j.on.pos);
  }
  // A cross join with a one-row constant relation (its columns already read as constants) is the other side.
  if (type === 'cross' && !on) {
    if (constantColumns(left)) return right;
    if (constantColumns(right)) return left;
  }
  if ((type === 'inner' || type === 'left' || type === 'right' || type === 'full') && !on) fail('query_error', `${j.type} JOIN needs an ON or USING clause`, j.pos);
  const join: Plan = { k: 'join', left, right, type, cols: [...left.cols, ...right.cols] };
  // A clock-dependent TRUE stays in the plan, so the bucket cache sees that the answer depends on time.
  if (on) noteTruth(on);
  if (on && !(on.k === 'const' && on.value === true && !on.clock)) join.on = on;
  if (!using) return join;
  // BigQuery: each USING column appears once, first, before the columns of both sides.
  scope.vars.splice(0, 0, { names: [], display: 'JOIN USING', kind: 'table', cols: using.merged });
  if (using.coalesce.length === 0) return join;
  const extra = using.coalesce.map((c) => c.col);
  return { k: 'project', input: join, exprs: [...join.cols.map(colRef), ...using.coalesce.map((c) => c.expr)], cols: [...join.cols, ...extra] };
}

interface UsingColumns {
  on: BExpr;
  /** What each USING name means after the join, in USING order. */
  merged: ColInfo[];
  /** FULL JOIN: the COALESCE columns a projection over the join computes. */
  coalesce: { col: ColInfo; expr: BExpr }[];
}

/**
 * `USING (a, b)`: an equality per column (each must be a visible column of both sides), the
 * originals hidden from unqualified names and `*`, and the merged column each name now means —
 * the left one (INNER, LEFT), the right one (RIGHT), or COALESCE of both (FULL), as BigQuery does.
 */
function usingColumns(b: QueryBinder, names: string[], leftVars: RangeVar[], rightVars: RangeVar[], type: string, pos: Pos | undefined): UsingColumns {
  const parts: BExpr[] = [];
  const merged: ColInfo[] = [];
  const coalesce: UsingColumns['coalesce'] = [];
  for (const name of names) {
    const l = visibleColumn(leftVars, name, 'left', pos);
    const r = visibleColumn(rightVars, name, 'right', pos);
    parts.push(cmp('=', colRef(l.col), colRef(r.col), pos));
    (l.v.hidden ??= new Set()).add(l.col.id);
    (r.v.hidden ??= new Set()).add(r.col.id);
    if (type === 'full') {
      const t = commonType(l.col.type, r.col.type) ?? 'ANY';
      const col = b.newCol(l.col.name, t);
      coalesce.push({ col, expr: callFn('COALESCE', [colRef(l.col), colRef(r.col)], pos) });
      merged.push(col);
    } else {
      merged.push(type === 'right' ? r.col : l.col);
    }
  }
  const on: BExpr = parts.length === 1 ? parts[0]! : { k: 'and', args: parts, type: 'BOOL' };
  return { on, merged, coalesce };
}

/** The one column named `name` that unqualified names see on one side of a USING join. */
function visibleColumn(vars: RangeVar[], name: string, side: string, pos: Pos | undefined): { v: RangeVar; col: ColInfo } {
  const scope = new FromScope(null);
  for (const v of vars) scope.add(v);
  const hits = scope.findColumn(name);
  if (hits.length === 0) fail('unknown_name', `Column ${name} in USING clause not found on ${side} side of join`, pos);
  if (hits.length > 1) fail('ambiguous_name', `Column ${name} in USING clause is ambiguous on the ${side} side of join: it is a column of ${hits.map((h) => h.v.display).join(' and ')}`, pos);
  return hits[0]!;
}

function bindUnnest(b: QueryBinder, expr: Expr, alias: string | undefined, offsetAlias: string | undefined, input: Plan, scope: FromScope,
  ctes: CteScope, trusted: boolean, outer: boolean, on: Expr | undefined, pos: Pos | undefined): Plan {
  const array = b.exprs.bind(expr, { scope, ctes, trusted, aggMode: 'forbid', clause: 'UNNEST' });
  if (array.type !== 'ARRAY' && array.type !== 'ANY' && array.type !== 'NULL') fail('query_error', `UNNEST needs an array, got ${array.type}`, pos);
  const o = originOf(array);
  const elemOrigin = o && !o.element ? { scan: o.scan, path: o.path, element: true } : undefined;
  const name = alias ?? '$unnest';
  const col = b.newCol(name, 'ANY', elemOrigin);
  const fields = elementFields(array);
  scope.add({ names: alias ? [alias.toLowerCase()] : [], display: name, kind: 'value', cols: [col], ...(fields ? { fields } : {}) });
  let offsetCol: ColInfo | undefined;
  if (offsetAlias) {
    offsetCol = b.newCol(offsetAlias, 'INT64');
    scope.add({ names: [offsetAlias.toLowerCase()], display: offsetAlias, kind: 'value', cols: [offsetCol] });
  }
  let plan: Plan = { k: 'unnest', input, array, outer, col, cols: [...input.cols, col, ...(offsetCol ? [offsetCol] : [])] };
  if (offsetCol) plan.offsetCol = offsetCol;
  if (on) {
    const cond = b.exprs.bind(on, { scope, ctes, trusted, aggMode: 'forbid', clause: 'JOIN ON' });
    noteTruth(cond);
    if (!(cond.k === 'const' && cond.value === true && !cond.clock)) {
      if (outer) fail('query_error', 'LEFT JOIN UNNEST supports only ON TRUE; filter in WHERE instead', on.pos);
      plan = { k: 'filter', input: plan, pred: cond, cols: plan.cols };
    }
  }
  return plan;
}
