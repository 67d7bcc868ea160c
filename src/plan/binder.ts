// Binds a parsed query to a logical plan: CTE scopes, FROM items (sources, CTEs, subqueries,
// UNNEST chains, joins), WHERE, GROUP BY/aggregates, HAVING, SELECT, DISTINCT, ORDER BY, LIMIT,
// set operations. Untrusted (sandboxed) parts may read only CTEs (SPEC §5).

import { engineCounters } from '../core/engine-counters.ts';
import { RingqlError } from '../core/errors.ts';
import type { Expr, FromItem, OrderItem, Query, Select, SelectItem, SetExpr, Pos } from '../sql/ast.ts';
import type { BExpr, ColInfo, Plan, ScanPlan } from './bound.ts';
import { ExprBinder, colRef, implicitName, posDetails, type ExprCtx, type ExprBinderHost } from './bind-expr.ts';
import { exprKey } from './expr-key.ts';
import { columnIds, mapChildren } from './expr-walk.ts';
import { originOf } from './origin-of.ts';
import type { Catalog } from './catalog.ts';
import { CteScope, FromScope, type RangeVar } from './scope.ts';
import { commonType } from '../core/types.ts';
import { elementFields } from './unnest-fields.ts';
import { notePin, noteTruth } from './param-trace.ts';
import { constantColumns } from './constant-columns.ts';
import { hasAggregate } from './has-aggregate.ts';

export interface BindOptions {
  catalog: Catalog;
  /** Parameter values (already decoded strings; absent = NULL). */
  params: ReadonlyMap<string, string | null>;
  /** When set, any other @name is an unknown_name error. */
  declaredParams?: ReadonlySet<string> | null;
  /** The query's clock: CURRENT_TIMESTAMP() (µs). */
  nowUs: number;
  /** Mark constants bound from parameters for prepare-once (plan/param-trace.ts). */
  traceParams?: boolean;
}

function fail(code: 'unknown_name' | 'ambiguous_name' | 'query_error' | 'sandbox_violation', msg: string, pos?: Pos, extra: Record<string, unknown> = {}): never {
  throw new RingqlError(code, msg, { ...posDetails(pos), ...extra });
}

export class Binder implements ExprBinderHost {
  private nextColId = 1;
  private nextScanId = 1;
  private readonly exprs: ExprBinder;
  readonly params: ReadonlyMap<string, string | null>;
  readonly declaredParams: ReadonlySet<string> | null;
  readonly nowUs: number;
  readonly traceParams: boolean;

  constructor(private readonly opts: BindOptions) {
    this.params = opts.params;
    this.declaredParams = opts.declaredParams ?? null;
    this.nowUs = opts.nowUs;
    this.traceParams = opts.traceParams ?? false;
    this.exprs = new ExprBinder(this);
  }

  /** Binds a whole trusted query (a saved query, or a plain CLI query over the sources). */
  bindTop(q: Query): Plan {
    engineCounters.binds++;
    return this.bindQuery(q, null, true, null);
  }

  /**
   * Binds a consumer query inside the saved query's WITH list: the saved CTEs are trusted (they may
   * read sources), everything the consumer wrote is not.
   */
  bindSandboxed(saved: Query, consumer: Query): Plan {
    engineCounters.binds++;
    const ctes = this.defineCtes(saved.with ?? [], null, true);
    return this.bindQuery(consumer, ctes, false, null);
  }

  newCol(name: string, type: ColInfo['type'], origin?: ColInfo['origin']): ColInfo {
    const c: ColInfo = { id: this.nextColId++, name, type };
    if (origin) c.origin = origin;
    return c;
  }

  bindSubquery(q: Query, ctx: ExprCtx): Plan {
    return this.bindQuery(q, ctx.ctes, ctx.trusted, ctx.scope);
  }

  private defineCtes(list: Query['with'] & object, parent: CteScope | null, trusted: boolean): CteScope {
    let scope = parent;
    const seen = new Set<string>();
    for (const cte of list) {
      const key = cte.name.toLowerCase();
      if (seen.has(key)) fail('query_error', `Duplicate CTE name ${cte.name} in the same WITH clause`, cte.pos);
      seen.add(key);
      const next = new CteScope(scope);
      // An untrusted CTE is checked even when nothing reads it: the sandbox rejects what is written, not what runs.
      if (!trusted) this.bindQuery(cte.query, scope, false, null);
      next.define(cte.name, { cte, scope, trusted });
      scope = next;
    }
    return scope ?? new CteScope(null);
  }

  private bindQuery(q: Query, ctes: CteScope | null, trusted: boolean, outer: FromScope | null): Plan {
    const scope = q.with && q.with.length ? this.defineCtes(q.with, ctes, trusted) : ctes ?? new CteScope(null);
    let plan: Plan;
    if (q.body.kind === 'select') {
      plan = this.bindSelect(q.body, scope, trusted, outer, q.orderBy);
    } else {
      plan = this.bindSetExpr(q.body, scope, trusted, outer);
      if (q.orderBy && q.orderBy.length) plan = this.orderByOutputs(plan, q.orderBy);
    }
    if (q.limit || q.offset) {
      const limit = q.limit ? this.constInt(q.limit, scope, trusted, 'LIMIT') : null;
      const offset = q.offset ? this.constInt(q.offset, scope, trusted, 'OFFSET') : 0;
      plan = { k: 'limit', input: plan, limit, offset, cols: plan.cols };
    }
    return plan;
  }

  private constInt(e: Expr, ctes: CteScope, trusted: boolean, what: string): number {
    const b = this.exprs.bind(e, { scope: new FromScope(null), ctes, trusted, aggMode: 'forbid', clause: what });
    notePin(b);
    // The number leaves the plan as a plain integer, so it must not depend on the clock (nor does BigQuery allow it).
    if (b.k === 'const' && b.clock) fail('query_error', `${what} needs a constant integer, not one computed from CURRENT_TIMESTAMP`, e.pos);
    const v = b.k === 'const' ? (typeof b.value === 'string' && /^\s*\d+\s*$/.test(b.value) ? Number(b.value) : b.value) : undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) fail('query_error', `${what} needs a constant non-negative integer`, e.pos);
    return v;
  }

  private bindSetExpr(s: SetExpr, ctes: CteScope, trusted: boolean, outer: FromScope | null): Plan {
    if (s.kind === 'select') return this.bindSelect(s, ctes, trusted, outer, undefined);
    if (s.kind === 'parenQuery') return this.bindQuery(s.query, ctes, trusted, outer);
    const left = this.bindSetExpr(s.left, ctes, trusted, outer);
    const right = this.bindSetExpr(s.right, ctes, trusted, outer);
    if (left.cols.length !== right.cols.length) {
      fail('query_error', `Queries in ${s.op}${s.all ? ' ALL' : ''} have different numbers of columns (${left.cols.length} and ${right.cols.length})`, s.pos);
    }
    const cols = left.cols.map((c, i) => {
      const t = commonType(c.type, right.cols[i]!.type);
      if (t === null) fail('query_error', `Column ${i + 1} of ${s.op} has incompatible types ${c.type} and ${right.cols[i]!.type}`, s.pos);
      return this.newCol(c.name, t);
    });
    const op = s.op.toLowerCase() as 'union' | 'intersect' | 'except';
    const inputs = left.k === 'setop' && left.op === op && left.all === s.all && op === 'union' ? [...left.inputs, right] : [left, right];
    return { k: 'setop', op, all: s.all, inputs, cols };
  }

  // ─── SELECT ─────────────────────────────────────────────────────────────────────────────

  private bindSelect(sel: Select, ctes: CteScope, trusted: boolean, outer: FromScope | null, orderBy: OrderItem[] | undefined): Plan {
    const scope = new FromScope(outer);
    let plan: Plan = sel.from ? this.bindFrom(sel.from, scope, ctes, trusted) : { k: 'values', rows: [[]], cols: [] };
    const ctx = (clause: string, aggMode: 'forbid' | 'collect' = 'forbid'): ExprCtx => ({ scope, ctes, trusted, aggMode, clause });

    if (sel.where) {
      const pred = this.exprs.expectBool(this.exprs.bind(sel.where, ctx('WHERE')), 'WHERE', sel.where.pos);
      plan = { k: 'filter', input: plan, pred, cols: plan.cols };
    }
    if (sel.qualify) fail('query_error', 'QUALIFY needs window functions, which are not supported', sel.qualify.pos);

    const items = this.expandStars(sel.items, scope);
    const aliases = new Map<string, Expr>();
    for (const it of items) if (it.name && it.ast) aliases.set(it.name.toLowerCase(), it.ast);

    const grouped = !!(sel.groupBy && sel.groupBy.length) || items.some((i) => i.ast && hasAggregate(i.ast)) ||
      (sel.having ? hasAggregate(sel.having) : false) || (orderBy ?? []).some((o) => hasAggregate(o.expr));

    let selectExprs: BExpr[];
    let orderExprs: { expr: BExpr; item: OrderItem; output?: number }[] = [];
    let rewrite: (e: BExpr, clause: string, pos?: Pos) => BExpr = (e) => e;

    if (grouped) {
      const keyAsts = (sel.groupBy ?? []).map((g) => this.groupByTarget(g, items, aliases));
      const keys = keyAsts.map((g) => this.exprs.bind(g, ctx('GROUP BY')));
      const aggs: BExpr[] = [];
      const aggIndex = new Map<string, number>();
      const keyIndex = new Map<string, number>();
      keys.forEach((k, i) => { if (!keyIndex.has(exprKey(k))) keyIndex.set(exprKey(k), i); });
      const keyCols = keys.map((k) => this.newCol(k.k === 'col' ? k.name : '$key', k.type, originOf(k)));
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
      const rawSelect = items.map((it) => (it.bound ? it.bound : this.exprs.bind(it.ast!, { ...ctx('SELECT', 'collect'), aliases })));
      const collectedSelect = rawSelect.map(collect);
      const rawHaving = sel.having ? collect(this.exprs.bind(sel.having, { ...ctx('HAVING', 'collect'), aliases })) : null;
      const rawOrder = (orderBy ?? []).map((o) => {
        const out = this.orderOutputIndex(o, items);
        if (out !== null) return { expr: collectedSelect[out]!, item: o, output: out };
        return { expr: collect(this.exprs.bind(o.expr, ctx('ORDER BY', 'collect'))), item: o };
      });
      const aggCols = aggs.map((a) => this.newCol(a.k === 'agg' ? a.agg.name.toLowerCase() : 'agg', a.type));
      const allowed = new Set([...keyCols, ...aggCols].map((c) => c.id));
      const fixAggRefs = (e: BExpr): BExpr =>
        e.k === 'col' && e.id < 0 ? colRef(aggCols[-1 - e.id]!) : mapChildren(e, fixAggRefs);
      plan = { k: 'aggregate', input: plan, keys, aggs, cols: [...keyCols, ...aggCols] };
      rewrite = (e, clause, pos) => {
        const fixed = fixAggRefs(e);
        for (const id of columnIds(fixed)) {
          if (!allowed.has(id)) {
            const name = findColName(fixed, id) ?? `#${id}`;
            fail('query_error', `${clause} expression references column ${name} which is neither grouped nor aggregated`, pos);
          }
        }
        return fixed;
      };
      selectExprs = collectedSelect.map((e, i) => rewrite(e, 'SELECT list', items[i]!.pos));
      if (rawHaving) {
        plan = { k: 'filter', input: plan, pred: rewrite(rawHaving, 'HAVING clause', sel.having!.pos), cols: plan.cols };
      }
      orderExprs = rawOrder.map((o) => ({ ...o, expr: o.output !== undefined ? selectExprs[o.output]! : rewrite(o.expr, 'ORDER BY clause', o.item.expr.pos) }));
    } else {
      if (sel.having) fail('query_error', 'HAVING needs GROUP BY or an aggregate', sel.having.pos);
      selectExprs = items.map((it) => it.bound ?? this.exprs.bind(it.ast!, ctx('SELECT')));
      orderExprs = (orderBy ?? []).map((o) => {
        const out = this.orderOutputIndex(o, items);
        if (out !== null) return { expr: selectExprs[out]!, item: o, output: out };
        return { expr: this.exprs.bind(o.expr, ctx('ORDER BY')), item: o };
      });
    }

    // Projection: the select list plus hidden columns for ORDER BY expressions not in it.
    let anon = 0;
    const outCols = selectExprs.map((e, i) => {
      const it = items[i]!;
      const name = it.name ?? `f${anon++}_`;
      return this.newCol(name, e.type, e.k === 'col' ? e.origin : undefined);
    });
    const projExprs = [...selectExprs];
    const projCols = [...outCols];
    const sortKeys: { expr: BExpr; desc: boolean; nullsFirst: boolean }[] = [];
    for (const o of orderExprs) {
      let idx = o.output ?? projExprs.findIndex((p) => exprKey(p) === exprKey(o.expr));
      if (idx < 0) {
        if (sel.distinct) fail('query_error', 'ORDER BY clause expression references a column which is not visible after SELECT DISTINCT', o.item.expr.pos);
        idx = projExprs.length;
        projExprs.push(o.expr);
        projCols.push(this.newCol('$order', o.expr.type, o.expr.k === 'col' ? o.expr.origin : undefined));
      }
      const desc = o.item.desc;
      sortKeys.push({ expr: colRef(projCols[idx]!), desc, nullsFirst: o.item.nulls ? o.item.nulls === 'first' : !desc });
    }
    plan = { k: 'project', input: plan, exprs: projExprs, cols: projCols };
    if (sel.distinct) plan = { k: 'distinct', input: plan, cols: plan.cols };
    if (sortKeys.length) plan = { k: 'sort', input: plan, keys: sortKeys, cols: plan.cols };
    if (projCols.length > outCols.length) {
      plan = { k: 'project', input: plan, exprs: outCols.map(colRef), cols: outCols.map((c) => this.newCol(c.name, c.type, c.origin)) };
    }
    return plan;
  }

  private expandStars(items: SelectItem[], scope: FromScope): { ast?: Expr; bound?: BExpr; name?: string; pos?: Pos }[] {
    const out: { ast?: Expr; bound?: BExpr; name?: string; pos?: Pos }[] = [];
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
        for (const c of this.starColumns(v, !it.qualifier, it.pos)) {
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
  private starColumns(v: RangeVar, bare: boolean, pos: Pos | undefined): { name: string; bound: BExpr }[] {
    if (v.kind === 'value') {
      const value = colRef(v.cols[0]!);
      if (!v.fields) return [{ name: v.display, bound: value }];
      return v.fields.map((f) => ({ name: f, bound: this.exprs.field(value, f, pos) }));
    }
    return v.cols.filter((c) => !(bare && v.hidden?.has(c.id)) && !c.name.startsWith('$')).map((c) => ({ name: c.name, bound: colRef(c) }));
  }

  /** GROUP BY item → the AST expression it groups by (ordinal, select alias, or itself). */
  private groupByTarget(g: Expr, items: { ast?: Expr; bound?: BExpr; name?: string }[], aliases: Map<string, Expr>): Expr {
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

  /** ORDER BY item → index of the select output it names (ordinal or alias), or null. */
  private orderOutputIndex(o: OrderItem, items: { name?: string }[]): number | null {
    const e = o.expr;
    if (e.kind === 'literal' && e.type === 'int') {
      const i = Number(e.value) - 1;
      if (i < 0 || i >= items.length) fail('query_error', `ORDER BY position ${String(e.value)} is out of range (1..${items.length})`, e.pos);
      return i;
    }
    if (e.kind === 'ident' && e.parts.length === 1) {
      const l = e.parts[0]!.toLowerCase();
      const hits = items.map((it, i) => (it.name?.toLowerCase() === l ? i : -1)).filter((i) => i >= 0);
      if (hits.length > 1) fail('query_error', `ORDER BY ${e.parts[0]} is ambiguous: several output columns have that name`, e.pos);
      if (hits.length === 1) return hits[0]!;
    }
    return null;
  }

  /** ORDER BY over a set operation: only output names and ordinals. */
  private orderByOutputs(plan: Plan, orderBy: OrderItem[]): Plan {
    const keys = orderBy.map((o) => {
      const i = this.orderOutputIndex(o, plan.cols);
      if (i === null) fail('query_error', 'ORDER BY after a set operation must name an output column or position', o.expr.pos);
      return { expr: colRef(plan.cols[i]!), desc: o.desc, nullsFirst: o.nulls ? o.nulls === 'first' : !o.desc };
    });
    return { k: 'sort', input: plan, keys, cols: plan.cols };
  }

  // ─── FROM ───────────────────────────────────────────────────────────────────────────────

  private bindFrom(item: FromItem, scope: FromScope, ctes: CteScope, trusted: boolean): Plan {
    switch (item.kind) {
      case 'table':
        return this.bindTable(item, scope, ctes, trusted);
      case 'subqueryRef': {
        const plan = this.bindQuery(item.query, ctes, trusted, null);
        const cols = constantColumns(plan) ?? plan.cols.filter((c) => !c.name.startsWith('$'));
        scope.add({ names: item.alias ? [item.alias.toLowerCase()] : [], display: item.alias ?? '(subquery)', kind: 'table', cols });
        return plan;
      }
      case 'unnest':
        return this.bindUnnest(item.expr, item.alias, item.offsetAlias, { k: 'values', rows: [[]], cols: [] }, scope, ctes, trusted, false, undefined, item.pos);
      case 'join':
        return this.bindJoin(item, scope, ctes, trusted);
    }
  }

  private bindTable(item: Extract<FromItem, { kind: 'table' }>, scope: FromScope, ctes: CteScope, trusted: boolean): Plan {
    const full = item.name.join('.');
    if (item.name.length === 1) {
      const entry = ctes.lookup(item.name[0]!);
      if (entry) {
        const plan = this.bindQuery(entry.cte.query, entry.scope, entry.trusted, null);
        const alias = item.alias ?? entry.cte.name;
        const cols = constantColumns(plan) ?? plan.cols.filter((c) => !c.name.startsWith('$'));
        scope.add({ names: [alias.toLowerCase()], display: alias, kind: 'table', cols });
        return plan;
      }
    }
    const source = this.opts.catalog.source(full);
    if (!source || !trusted) {
      if (!trusted) {
        fail('sandbox_violation', `Table not found in CTE: (${full}). A sandboxed query may read only the endpoint's CTEs: ${ctes.names().join(', ') || '(none)'}`, item.pos, { table: full });
      }
      fail('unknown_name', `Table not found: ${full}; sources: ${this.opts.catalog.sourceNames().join(', ')}`, item.pos, { table: full });
    }
    const scan: ScanPlan = { k: 'scan', source, alias: item.alias ?? full, cols: [], order: 'desc', scanId: this.nextScanId++ };
    scan.cols = source.columns().map((name) => this.newCol(name, source.columnType(name), { scan, path: [name], element: false }));
    const names = item.alias ? [item.alias.toLowerCase()] : [...new Set([full.toLowerCase(), full.split('.').pop()!.toLowerCase()])];
    scope.add({ names, display: item.alias ?? full, kind: 'table', cols: scan.cols });
    return scan;
  }

  private bindJoin(j: Extract<FromItem, { kind: 'join' }>, scope: FromScope, ctes: CteScope, trusted: boolean): Plan {
    const left = this.bindFrom(j.left, scope, ctes, trusted);
    const r = j.right;
    const isPathUnnest = r.kind === 'table' && r.name.length >= 2 && !!scope.findVar(r.name[0]!);
    if (r.kind === 'unnest' || isPathUnnest) {
      if (j.type === 'RIGHT' || j.type === 'FULL') fail('query_error', `${j.type} JOIN with UNNEST is not supported`, j.pos);
      const expr: Expr = r.kind === 'unnest' ? r.expr : { kind: 'ident', parts: (r as { name: string[] }).name, ...(r.pos ? { pos: r.pos } : {}) };
      const alias = r.kind === 'unnest' ? r.alias : (r as { alias?: string }).alias ?? (r as { name: string[] }).name.at(-1);
      const offsetAlias = r.kind === 'unnest' ? r.offsetAlias : undefined;
      return this.bindUnnest(expr, alias, offsetAlias, left, scope, ctes, trusted, j.type === 'LEFT', j.on, j.pos);
    }
    const rightScope = new FromScope(null);
    const right = this.bindFrom(r, rightScope, ctes, trusted);
    for (const v of rightScope.vars) scope.add(v);
    let on: BExpr | undefined;
    const type = j.type === 'COMMA' || j.type === 'CROSS' ? 'cross' : (j.type.toLowerCase() as 'inner' | 'left' | 'right' | 'full');
    let using: UsingColumns | null = null;
    if (j.using) {
      using = this.usingColumns(j.using, scope.vars.slice(0, scope.vars.length - rightScope.vars.length), rightScope.vars, type, j.pos);
      on = using.on;
    } else if (j.on) {
      on = this.exprs.expectBool(this.exprs.bind(j.on, { scope, ctes, trusted, aggMode: 'forbid', clause: 'JOIN ON' }), 'JOIN ON', j.on.pos);
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

  /**
   * `USING (a, b)`: an equality per column (each must be a visible column of both sides), the
   * originals hidden from unqualified names and `*`, and the merged column each name now means —
   * the left one (INNER, LEFT), the right one (RIGHT), or COALESCE of both (FULL), as BigQuery does.
   */
  private usingColumns(names: string[], leftVars: RangeVar[], rightVars: RangeVar[], type: string, pos: Pos | undefined): UsingColumns {
    const parts: BExpr[] = [];
    const merged: ColInfo[] = [];
    const coalesce: UsingColumns['coalesce'] = [];
    for (const name of names) {
      const l = visibleColumn(leftVars, name, 'left', pos);
      const r = visibleColumn(rightVars, name, 'right', pos);
      parts.push(this.exprs.cmp('=', colRef(l.col), colRef(r.col), pos));
      (l.v.hidden ??= new Set()).add(l.col.id);
      (r.v.hidden ??= new Set()).add(r.col.id);
      if (type === 'full') {
        const t = commonType(l.col.type, r.col.type) ?? 'ANY';
        const col = this.newCol(l.col.name, t);
        coalesce.push({ col, expr: this.exprs.callFn('COALESCE', [colRef(l.col), colRef(r.col)], pos) });
        merged.push(col);
      } else {
        merged.push(type === 'right' ? r.col : l.col);
      }
    }
    const on: BExpr = parts.length === 1 ? parts[0]! : { k: 'and', args: parts, type: 'BOOL' };
    return { on, merged, coalesce };
  }

  private bindUnnest(expr: Expr, alias: string | undefined, offsetAlias: string | undefined, input: Plan, scope: FromScope,
    ctes: CteScope, trusted: boolean, outer: boolean, on: Expr | undefined, pos: Pos | undefined): Plan {
    const array = this.exprs.bind(expr, { scope, ctes, trusted, aggMode: 'forbid', clause: 'UNNEST' });
    if (array.type !== 'ARRAY' && array.type !== 'ANY' && array.type !== 'NULL') fail('query_error', `UNNEST needs an array, got ${array.type}`, pos);
    const o = originOf(array);
    const elemOrigin = o && !o.element ? { scan: o.scan, path: o.path, element: true } : undefined;
    const name = alias ?? '$unnest';
    const col = this.newCol(name, 'ANY', elemOrigin);
    const fields = elementFields(array);
    scope.add({ names: alias ? [alias.toLowerCase()] : [], display: name, kind: 'value', cols: [col], ...(fields ? { fields } : {}) });
    let offsetCol: ColInfo | undefined;
    if (offsetAlias) {
      offsetCol = this.newCol(offsetAlias, 'INT64');
      scope.add({ names: [offsetAlias.toLowerCase()], display: offsetAlias, kind: 'value', cols: [offsetCol] });
    }
    let plan: Plan = { k: 'unnest', input, array, outer, col, cols: [...input.cols, col, ...(offsetCol ? [offsetCol] : [])] };
    if (offsetCol) plan.offsetCol = offsetCol;
    if (on) {
      const cond = this.exprs.bind(on, { scope, ctes, trusted, aggMode: 'forbid', clause: 'JOIN ON' });
      noteTruth(cond);
      if (!(cond.k === 'const' && cond.value === true && !cond.clock)) {
        if (outer) fail('query_error', 'LEFT JOIN UNNEST supports only ON TRUE; filter in WHERE instead', on.pos);
        plan = { k: 'filter', input: plan, pred: cond, cols: plan.cols };
      }
    }
    return plan;
  }
}

interface UsingColumns {
  on: BExpr;
  /** What each USING name means after the join, in USING order. */
  merged: ColInfo[];
  /** FULL JOIN: the COALESCE columns a projection over the join computes. */
  coalesce: { col: ColInfo; expr: BExpr }[];
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

function findColName(e: BExpr, id: number): string | undefined {
  if (e.k === 'col' && e.id === id) return e.name;
  let found: string | undefined;
  mapChildren(e, (c) => { found ??= findColName(c, id); return c; });
  return found;
}
