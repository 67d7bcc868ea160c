// Reference evaluator (ARCHITECTURE habit 4): a slow, obvious, row-at-a-time interpreter of the SQL AST
// over in-memory tables, no planning. TIMESTAMPs are their own kind (Ts) inside, so a string compared
// with one is read as a timestamp (SPEC §7); they leave as µs numbers.

import type { Expr, FromItem, Ident, OrderItem, Query, Select, SelectItem, SetExpr } from '../../src/sql/ast.ts';
import type { Value } from '../../src/core/values.ts';
import { RingqlError } from '../../src/core/errors.ts';
import { parseTimestamp, formatDatetime } from '../../src/core/time.ts';
import { truncTimestamp, addInterval, diffTimestamp } from '../../src/core/time-arithmetic.ts';
import { compileRegex } from '../../src/core/regex.ts';

// ─── Internal values ────────────────────────────────────────────────────────────────────────

/** A TIMESTAMP value: kept apart from numbers so comparisons and casts know its type. */
class Ts {
  constructor(readonly us: number) {}
}
/** INTERVAL n unit, only ever an argument of TIMESTAMP_ADD/SUB. */
class Iv {
  constructor(readonly n: number, readonly unit: string) {}
}
type V = null | boolean | number | string | Ts | Iv | V[] | { [k: string]: V };
type Row = Record<string, V>;

interface Relation {
  columns: string[];
  rows: Row[];
}

/** One range variable of a FROM clause, bound for one combined row. */
interface Binding {
  alias: string | null;
  kind: 'row' | 'value';
  /** Columns of a 'row' binding (table, CTE, subquery). */
  columns: string[];
  /** null for the NULL side of an outer join. */
  row: Row | null;
  /** Element of an UNNEST ('value' binding). */
  value: V;
  /** Lower-cased columns a JOIN USING merged: hidden from unqualified names and a bare `*`. */
  hidden?: string[];
}

interface Env {
  bindings: Binding[];
  parent: Env | null;
  /** Every name reads as NULL (the representative row of an empty global aggregate). */
  nullAll?: boolean;
}

interface Ctx {
  tables: Map<string, Relation>;
  ctes: Map<string, Relation>;
  params: Map<string, string | null>;
  nowUs: number;
  /** Results of uncorrelated FROM subqueries, by AST node (a node always sees the same CTEs). */
  subqueries: WeakMap<Query, Relation>;
}

/** An evaluation failure the reference itself cannot handle (not a SQL error). */
export class ReferenceUnsupported extends Error {
  constructor(what: string) {
    super(`reference evaluator: unsupported ${what}`);
  }
}

const isObj = (v: V): v is { [k: string]: V } =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Ts) && !(v instanceof Iv);

function queryError(msg: string): never {
  throw new RingqlError('query_error', msg);
}

// ─── Public API ─────────────────────────────────────────────────────────────────────────────

export interface EvalOptions {
  params: Map<string, string | null>;
  nowUs: number;
}

/**
 * What a correct engine may return: `take` rows from each segment's `pool`, segments in order.
 * A segment is a group of rows whose ORDER BY keys are equal (any order within it); without
 * ORDER BY the whole result is one segment. When LIMIT/OFFSET cut a segment, `take` is less
 * than the pool size and any sub-multiset of that size is correct.
 */
export interface Expected {
  columns: string[];
  rows: Record<string, Value>[];
  ordered: boolean;
  segments: { take: number; pool: Record<string, Value>[] }[];
}

export function evaluate(q: Query, tables: Map<string, Record<string, Value>[]>, opts: EvalOptions): Record<string, Value>[] {
  return evaluateDetailed(q, tables, opts).rows;
}

export function evaluateDetailed(q: Query, tables: Map<string, Record<string, Value>[]>, opts: EvalOptions): Expected {
  const ctx: Ctx = { tables: loadTables(tables), ctes: new Map(), params: opts.params, nowUs: opts.nowUs, subqueries: new WeakMap() };
  const full = evalQueryUnlimited(q, ctx, null);
  const { offset, limit } = limits(q, ctx);
  const n = full.rows.length;
  const from = Math.min(offset, n);
  const to = limit === null ? n : Math.min(n, from + limit);
  const out = (r: Row): Record<string, Value> => toOutRow(r, full.columns);
  const rows = full.rows.slice(from, to).map(out);
  const segments: Expected['segments'] = [];
  if (full.keys === null) {
    segments.push({ take: to - from, pool: full.rows.map(out) });
  } else {
    let gs = 0;
    while (gs < n) {
      let ge = gs + 1;
      while (ge < n && compareKeys(full.keys[gs]!, full.keys[ge]!, q.orderBy!) === 0) ge++;
      const take = Math.max(0, Math.min(ge, to) - Math.max(gs, from));
      if (take > 0) segments.push({ take, pool: full.rows.slice(gs, ge).map(out) });
      gs = ge;
    }
  }
  return { columns: full.columns, rows, ordered: full.keys !== null, segments };
}

/** Source rows as the engine exposes them; the top-level `timestamp` column becomes a Ts. */
function loadTables(tables: Map<string, Record<string, Value>[]>): Map<string, Relation> {
  const out = new Map<string, Relation>();
  for (const [name, rows] of tables) {
    const columns = ['id', 'timestamp', 'event_message', 'metadata'];
    for (const r of rows) for (const k of Object.keys(r)) if (!columns.includes(k)) columns.push(k);
    out.set(name, {
      columns,
      rows: rows.map((r) => {
        const x: Row = { ...(r as Row) };
        if (typeof r.timestamp === 'number') x.timestamp = new Ts(r.timestamp);
        return x;
      }),
    });
  }
  return out;
}

function toOut(v: V): Value {
  if (v instanceof Ts) return v.us;
  if (v instanceof Iv) throw new ReferenceUnsupported('INTERVAL in a result');
  if (Array.isArray(v)) return v.map(toOut);
  if (isObj(v)) {
    const o: Record<string, Value> = {};
    for (const k of Object.keys(v)) o[k] = toOut(v[k]!);
    return o;
  }
  return v;
}

function toOutRow(r: Row, columns: string[]): Record<string, Value> {
  const o: Record<string, Value> = {};
  for (const c of columns) o[c] = toOut(r[c] ?? null);
  return o;
}

// ─── Queries ────────────────────────────────────────────────────────────────────────────────

interface OutRow {
  row: Row;
  /** Evaluates an ORDER BY expression in this row's own scope (FROM row or group). */
  evalIn: (e: Expr) => V;
}
interface BodyResult {
  columns: string[];
  out: OutRow[];
}

function withCtes(q: Query, ctx: Ctx, outer: Env | null): Ctx {
  if (!q.with || q.with.length === 0) return ctx;
  const ctes = new Map(ctx.ctes);
  const c2: Ctx = { ...ctx, ctes };
  for (const cte of q.with) {
    const rel = evalQuery(cte.query, c2, outer);
    ctes.set(cte.name.toLowerCase(), rel);
  }
  return c2;
}

function limits(q: Query, ctx: Ctx): { offset: number; limit: number | null } {
  const num = (e: Expr | undefined, dflt: number | null): number | null => {
    if (!e) return dflt;
    const v = evalExpr(e, { bindings: [], parent: null }, ctx, null);
    const n = typeof v === 'string' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) queryError(`bad LIMIT/OFFSET ${String(v)}`);
    return n;
  };
  return { offset: num(q.offset, 0)!, limit: num(q.limit, null) };
}

/** A query's rows sorted by ORDER BY (with their keys) but before OFFSET/LIMIT. */
function evalQueryUnlimited(q: Query, outerCtx: Ctx, outer: Env | null): { columns: string[]; rows: Row[]; keys: V[][] | null } {
  const ctx = withCtes(q, outerCtx, outer);
  const body = evalSetExpr(q.body, ctx, outer);
  if (!q.orderBy || q.orderBy.length === 0) return { columns: body.columns, rows: body.out.map((o) => o.row), keys: null };
  const items = q.orderBy;
  const keyed = body.out.map((o) => ({ row: o.row, key: items.map((it) => orderKey(it.expr, o, body.columns)) }));
  keyed.sort((a, b) => compareKeys(a.key, b.key, items));
  return { columns: body.columns, rows: keyed.map((k) => k.row), keys: keyed.map((k) => k.key) };
}

function evalQuery(q: Query, ctx: Ctx, outer: Env | null): Relation {
  const full = evalQueryUnlimited(q, ctx, outer);
  const { offset, limit } = limits(q, ctx);
  const rows = full.rows.slice(offset, limit === null ? undefined : offset + limit);
  return { columns: full.columns, rows };
}

/** ORDER BY item → value: an ordinal, a select-list name, else the expression in the row's scope. */
function orderKey(e: Expr, o: OutRow, columns: string[]): V {
  if (e.kind === 'literal' && e.type === 'int' && typeof e.value === 'number') {
    const c = columns[e.value - 1];
    if (c === undefined) throw new RingqlError('unknown_name', `ORDER BY ordinal ${e.value} out of range`);
    return o.row[c] ?? null;
  }
  if (e.kind === 'ident' && e.parts.length === 1) {
    const name = e.parts[0]!.toLowerCase();
    const hit = columns.find((c) => c.toLowerCase() === name);
    if (hit !== undefined) return o.row[hit] ?? null;
  }
  return o.evalIn(e);
}

function compareKeys(a: V[], b: V[], items: OrderItem[]): number {
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    const x = a[i] ?? null, y = b[i] ?? null;
    const nullsFirst = it.nulls ? it.nulls === 'first' : !it.desc;
    if (x === null || y === null) {
      if (x === null && y === null) continue;
      return (x === null) === nullsFirst ? -1 : 1;
    }
    let c = totalCompare(x, y);
    if (it.desc) c = -c;
    if (c !== 0) return c;
  }
  return 0;
}

function rank(v: V): number {
  if (typeof v === 'boolean') return 1;
  if (typeof v === 'number') return 2;
  if (typeof v === 'string') return 3;
  if (v instanceof Ts) return 4;
  return 5;
}

/** Total order of non-null values for sorting (NaN first among numbers, as BigQuery). */
function totalCompare(x: V, y: V): number {
  const c = compare(x, y);
  if (c !== null) return c;
  if (typeof x === 'number' && typeof y === 'number') return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : -1) : 1;
  const rx = rank(x), ry = rank(y);
  if (rx !== ry) return rx - ry;
  const sx = keyOf(x), sy = keyOf(y);
  return sx < sy ? -1 : sx > sy ? 1 : 0;
}

function evalSetExpr(s: SetExpr, ctx: Ctx, outer: Env | null): BodyResult {
  switch (s.kind) {
    case 'select':
      return evalSelect(s, ctx, outer);
    case 'parenQuery':
      return relationBody(evalQuery(s.query, ctx, outer), ctx);
    case 'setop': {
      const l = relationOf(evalSetExpr(s.left, ctx, outer));
      const r = relationOf(evalSetExpr(s.right, ctx, outer));
      if (l.columns.length !== r.columns.length) {
        throw new RingqlError('query_error', `${s.op} branches have ${l.columns.length} and ${r.columns.length} columns`);
      }
      const rename = (row: Row): Row => {
        const o: Row = {};
        r.columns.forEach((c, i) => (o[l.columns[i]!] = row[c] ?? null));
        return o;
      };
      const left = l.rows, right = r.rows.map(rename);
      const key = (row: Row): string => l.columns.map((c) => keyOf(row[c] ?? null)).join('\u0001');
      let rows: Row[];
      if (s.op === 'UNION') {
        rows = [...left, ...right];
        if (!s.all) rows = dedupe(rows, key);
      } else {
        const counts = new Map<string, number>();
        for (const row of right) counts.set(key(row), (counts.get(key(row)) ?? 0) + 1);
        rows = [];
        for (const row of s.all ? left : dedupe(left, key)) {
          const k = key(row), c = counts.get(k) ?? 0;
          if (s.all && c > 0) counts.set(k, c - 1);
          if (s.op === 'INTERSECT' ? c > 0 : c === 0) rows.push(row);
        }
      }
      return relationBody({ columns: l.columns, rows }, ctx);
    }
  }
}

function dedupe(rows: Row[], key: (r: Row) => string): Row[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const k = key(r);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function relationOf(b: BodyResult): Relation {
  return { columns: b.columns, rows: b.out.map((o) => o.row) };
}

/** A set-operation result: ORDER BY expressions see its output columns as unqualified names. */
function relationBody(rel: Relation, ctx: Ctx): BodyResult {
  return {
    columns: rel.columns,
    out: rel.rows.map((row) => ({
      row,
      evalIn: (e: Expr) =>
        evalExpr(e, { bindings: [{ alias: null, kind: 'row', columns: rel.columns, row, value: null }], parent: null }, ctx, null),
    })),
  };
}

// ─── SELECT ─────────────────────────────────────────────────────────────────────────────────

const AGGREGATES = new Set([
  'COUNT', 'COUNTIF', 'SUM', 'AVG', 'MIN', 'MAX', 'ANY_VALUE', 'LOGICAL_AND', 'LOGICAL_OR', 'ARRAY_AGG',
  'STRING_AGG', 'APPROX_COUNT_DISTINCT', 'APPROX_QUANTILES', 'APPROX_TOP_COUNT', 'COUNT_IF',
]);

/** Does the expression contain an aggregate call (outside subqueries)? */
function hasAggregate(e: Expr | undefined): boolean {
  if (!e) return false;
  let found = false;
  const visit = (x: unknown): void => {
    if (found || x === null || typeof x !== 'object') return;
    if (Array.isArray(x)) return x.forEach(visit);
    const o = x as { kind?: string; name?: string };
    if (o.kind === 'subquery' || o.kind === 'exists') return;
    if (o.kind === 'call' && typeof o.name === 'string' && AGGREGATES.has(o.name.toUpperCase())) {
      found = true;
      return;
    }
    for (const [k, v] of Object.entries(o)) {
      if (k === 'pos' || k === 'query') continue;
      visit(v);
    }
  };
  visit(e);
  return found;
}

function implicitName(e: Expr): string | null {
  if (e.kind === 'ident') return e.parts[e.parts.length - 1]!;
  if (e.kind === 'field') return e.name;
  return null;
}

interface Column {
  name: string;
  expr: Expr | null;
  /** For star columns: read directly from a binding. */
  read?: (env: Env) => V;
}

function evalSelect(s: Select, ctx: Ctx, outer: Env | null): BodyResult {
  if (s.qualify) throw new ReferenceUnsupported('QUALIFY');
  const envs: Env[] = (s.from ? expandFrom(s.from, ctx, outer) : [[]]).map((b) => ({ bindings: b, parent: outer }));
  const filtered = s.where ? envs.filter((env) => evalExpr(s.where!, env, ctx, null) === true) : envs;

  // Output columns (star expansion needs a binding shape: take it from the FROM item).
  const cols: Column[] = [];
  let anon = 0;
  const shape = s.from && s.items.some((i) => i.kind === 'star') ? shapeOf(s.from, ctx) : [];
  for (const item of s.items) cols.push(...selectColumns(item, shape, () => `f${anon++}_`));
  const columns = cols.map((c) => c.name);

  const aggregate = (s.groupBy && s.groupBy.length > 0) || s.having !== undefined ||
    s.items.some((i) => i.kind === 'expr' && hasAggregate(i.expr));

  let out: OutRow[];
  if (!aggregate) {
    out = filtered.map((env) => {
      const row: Row = {};
      for (const c of cols) row[c.name] = c.read ? c.read(env) : evalExpr(c.expr!, env, ctx, null);
      return { row, evalIn: (e: Expr) => evalExpr(e, env, ctx, null) };
    });
  } else {
    if (cols.some((c) => c.read)) throw new ReferenceUnsupported('SELECT * with GROUP BY');
    const keyExprs = (s.groupBy ?? []).map((g) => groupExpr(g, s.items));
    const groups = new Map<string, Env[]>();
    for (const env of filtered) {
      const k = keyExprs.map((g) => keyOf(evalExpr(g, env, ctx, null))).join('\u0001');
      const list = groups.get(k);
      if (list) list.push(env);
      else groups.set(k, [env]);
    }
    if (keyExprs.length === 0 && groups.size === 0) groups.set('', []);
    out = [];
    for (const members of groups.values()) {
      const rep: Env = members[0] ?? { bindings: [], parent: outer, nullAll: true };
      const inGroup = (e: Expr): V => evalExpr(e, rep, ctx, members);
      if (s.having && inGroup(s.having) !== true) continue;
      const row: Row = {};
      for (const c of cols) row[c.name] = inGroup(c.expr!);
      out.push({ row, evalIn: inGroup });
    }
  }
  if (s.distinct) {
    const seen = new Set<string>();
    out = out.filter((o) => {
      const k = columns.map((c) => keyOf(o.row[c] ?? null)).join('\u0001');
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }
  return { columns, out };
}

/** GROUP BY item → expression: ordinal, select alias (wins over a column), or itself. */
function groupExpr(g: Expr, items: SelectItem[]): Expr {
  if (g.kind === 'literal' && g.type === 'int' && typeof g.value === 'number') {
    const it = items[g.value - 1];
    if (!it || it.kind !== 'expr') throw new RingqlError('unknown_name', `GROUP BY ordinal ${g.value} out of range`);
    return it.expr;
  }
  if (g.kind === 'ident' && g.parts.length === 1) {
    const name = g.parts[0]!.toLowerCase();
    const it = items.find((i) => i.kind === 'expr' && i.alias !== undefined && i.alias.toLowerCase() === name);
    if (it && it.kind === 'expr') return it.expr;
  }
  return g;
}

function selectColumns(item: SelectItem, shape: Binding[], nextAnon: () => string): Column[] {
  if (item.kind === 'expr') {
    const name = item.alias ?? implicitName(item.expr) ?? nextAnon();
    return [{ name, expr: item.expr }];
  }
  const q = item.qualifier?.map((p) => p.toLowerCase());
  const except = new Set((item.except ?? []).map((x) => x.toLowerCase()));
  const replace = new Map((item.replace ?? []).map((r) => [r.alias.toLowerCase(), r.expr]));
  const out: Column[] = [];
  shape.forEach((b, bi) => {
    if (q && (q.length !== 1 || b.alias?.toLowerCase() !== q[0])) return;
    if (b.kind === 'row') {
      for (const c of b.columns) {
        if (except.has(c.toLowerCase()) || (!q && b.hidden?.includes(c.toLowerCase()))) continue;
        const r = replace.get(c.toLowerCase());
        out.push(r ? { name: c, expr: r } : { name: c, expr: null, read: (env) => env.bindings[bi]!.row?.[c] ?? null });
      }
    } else if (q && b.kind === 'value') {
      const v0 = b.value;
      if (isObj(v0)) throw new ReferenceUnsupported('alias.* on a struct');
      out.push({ name: b.alias ?? nextAnon(), expr: null, read: (env) => env.bindings[bi]!.value });
    } else if (b.alias !== null) {
      out.push({ name: b.alias, expr: null, read: (env) => env.bindings[bi]!.value });
    }
  });
  return out;
}

// ─── FROM ───────────────────────────────────────────────────────────────────────────────────

function lookupRelation(name: string[], ctx: Ctx): Relation | null {
  if (name.length === 1) {
    const cte = ctx.ctes.get(name[0]!.toLowerCase());
    if (cte) return cte;
  }
  return ctx.tables.get(name.join('.')) ?? null;
}

function tableAlias(name: string[], alias: string | undefined): string {
  return alias ?? name[name.length - 1]!;
}

/** Is `name` a path starting at a range variable of `env` (an implicit UNNEST)? */
function isRangePath(name: string[], env: Env | null): boolean {
  if (name.length < 2) return false;
  const head = name[0]!.toLowerCase();
  for (let e = env; e; e = e.parent) if (e.bindings.some((b) => b.alias?.toLowerCase() === head)) return true;
  return false;
}

/** Every combination of bindings a FROM item produces, in the scope `outer`. */
function expandFrom(item: FromItem, ctx: Ctx, outer: Env | null): Binding[][] {
  switch (item.kind) {
    case 'table': {
      if (isRangePath(item.name, outer)) {
        return unnestValues({ kind: 'ident', parts: item.name }, item.alias ?? item.name[item.name.length - 1]!, undefined, ctx, outer);
      }
      const rel = lookupRelation(item.name, ctx);
      if (!rel) throw new RingqlError('unknown_name', `unknown table ${item.name.join('.')}`);
      const alias = tableAlias(item.name, item.alias);
      return rel.rows.map((row) => [{ alias, kind: 'row', columns: rel.columns, row, value: null }]);
    }
    case 'subqueryRef': {
      const rel = fromSubquery(item.query, ctx);
      return rel.rows.map((row) => [{ alias: item.alias ?? null, kind: 'row', columns: rel.columns, row, value: null }]);
    }
    case 'unnest':
      return unnestValues(item.expr, item.alias ?? null, item.offsetAlias, ctx, outer);
    case 'join':
      return expandJoin(item, ctx, outer);
  }
}

function fromSubquery(q: Query, ctx: Ctx): Relation {
  let rel = ctx.subqueries.get(q);
  if (!rel) ctx.subqueries.set(q, (rel = evalQuery(q, ctx, null)));
  return rel;
}

function unnestValues(e: Expr, alias: string | null, offsetAlias: string | undefined, ctx: Ctx, env: Env | null): Binding[][] {
  const arr = evalExpr(e, env ?? { bindings: [], parent: null }, ctx, null);
  if (arr === null) return [];
  if (!Array.isArray(arr)) throw new RingqlError('query_error', 'UNNEST of a non-array value');
  return arr.map((value, i) => {
    const b: Binding[] = [{ alias, kind: 'value', columns: [], row: null, value }];
    if (offsetAlias !== undefined) b.push({ alias: offsetAlias, kind: 'value', columns: [], row: null, value: i });
    return b;
  });
}

function expandJoin(j: Extract<FromItem, { kind: 'join' }>, ctx: Ctx, outer: Env | null): Binding[][] {
  if (j.using) return expandUsingJoin(j, j.using, ctx, outer);
  const lefts = expandFrom(j.left, ctx, outer);
  const out: Binding[][] = [];
  const rightShape = (): Binding[] => shapeOf(j.right, ctx);
  const onOk = (bs: Binding[]): boolean => j.on === undefined || evalExpr(j.on, { bindings: bs, parent: outer }, ctx, null) === true;
  if (j.type === 'RIGHT' || j.type === 'FULL') {
    const rights = expandFrom(j.right, ctx, outer);
    const matched = new Set<number>();
    const lshape = shapeOf(j.left, ctx);
    for (const l of lefts) {
      let any = false;
      rights.forEach((r, ri) => {
        const bs = [...l, ...r];
        if (onOk(bs)) { out.push(bs); any = true; matched.add(ri); }
      });
      if (!any && j.type === 'FULL') out.push([...l, ...rightShape()]);
    }
    rights.forEach((r, ri) => { if (!matched.has(ri)) out.push([...lshape, ...r]); });
    return out;
  }
  for (const l of lefts) {
    const rights = expandFrom(j.right, ctx, { bindings: l, parent: outer });
    let any = false;
    for (const r of rights) {
      const bs = [...l, ...r];
      if (j.type === 'CROSS' || j.type === 'COMMA' || onOk(bs)) {
        out.push(bs);
        any = true;
      }
    }
    if (!any && j.type === 'LEFT') out.push([...l, ...rightShape()]);
  }
  return out;
}

/** The visible (not USING-merged) column `name` among bindings: [binding index, column]; ambiguity is an error. */
function visibleColumn(bs: Binding[], name: string): [number, string] {
  const l = name.toLowerCase();
  const hits = bs.flatMap((b, i) => {
    const c = b.kind === 'row' && !b.hidden?.includes(l) ? findColumn(b.columns, name) : undefined;
    return c === undefined ? [] : [[i, c] as [number, string]];
  });
  if (hits.length === 0) throw new RingqlError('unknown_name', `USING column ${name} not on both sides`);
  if (hits.length > 1) throw new RingqlError('ambiguous_name', `USING column ${name} is ambiguous`);
  return hits[0]!;
}

/**
 * `a JOIN b USING (x, y)`, directly from BigQuery's definition: rows match when every named column is
 * equal; the result leads with one binding holding the merged columns (left value for INNER/LEFT,
 * right for RIGHT, the non-NULL one for FULL), and both sides' originals are hidden from bare names.
 */
function usingBindings(j: Extract<FromItem, { kind: 'join' }>, names: string[], l: Binding[], r: Binding[]): Binding[] {
  const row: Row = {};
  const columns: string[] = [];
  for (const n of names) {
    const [li, lc] = visibleColumn(l, n);
    const [ri, rc] = visibleColumn(r, n);
    const lv = l[li]!.row?.[lc] ?? null;
    const rv = r[ri]!.row?.[rc] ?? null;
    columns.push(lc);
    row[lc] = j.type === 'RIGHT' ? rv : j.type === 'FULL' ? lv ?? rv : lv;
  }
  const hide = (b: Binding): Binding => ({ ...b, hidden: [...(b.hidden ?? []), ...names.map((n) => n.toLowerCase())] });
  return [{ alias: null, kind: 'row', columns, row, value: null }, ...l.map(hide), ...r.map(hide)];
}

function usingMatch(names: string[], l: Binding[], r: Binding[]): boolean {
  return names.every((n) => {
    const [li, lc] = visibleColumn(l, n);
    const [ri, rc] = visibleColumn(r, n);
    return equals(l[li]!.row?.[lc] ?? null, r[ri]!.row?.[rc] ?? null) === true;
  });
}

function expandUsingJoin(j: Extract<FromItem, { kind: 'join' }>, names: string[], ctx: Ctx, outer: Env | null): Binding[][] {
  const lefts = expandFrom(j.left, ctx, outer);
  const rights = expandFrom(j.right, ctx, outer);
  const lshape = shapeOf(j.left, ctx);
  const rshape = shapeOf(j.right, ctx);
  const out: Binding[][] = [];
  const matched = new Set<number>();
  for (const l of lefts) {
    let any = false;
    rights.forEach((r, ri) => {
      if (usingMatch(names, l, r)) { out.push(usingBindings(j, names, l, r)); any = true; matched.add(ri); }
    });
    if (!any && (j.type === 'LEFT' || j.type === 'FULL')) out.push(usingBindings(j, names, l, rshape));
  }
  if (j.type === 'RIGHT' || j.type === 'FULL') rights.forEach((r, ri) => { if (!matched.has(ri)) out.push(usingBindings(j, names, lshape, r)); });
  return out;
}

/** The bindings of a FROM item with NULL rows/values: the padding of an outer join, and star's columns. */
function shapeOf(item: FromItem, ctx: Ctx): Binding[] {
  switch (item.kind) {
    case 'table': {
      const rel = lookupRelation(item.name, ctx);
      if (!rel) return [{ alias: item.alias ?? item.name[item.name.length - 1]!, kind: 'value', columns: [], row: null, value: null }];
      return [{ alias: tableAlias(item.name, item.alias), kind: 'row', columns: rel.columns, row: null, value: null }];
    }
    case 'subqueryRef': {
      const rel = fromSubquery(item.query, ctx);
      return [{ alias: item.alias ?? null, kind: 'row', columns: rel.columns, row: null, value: null }];
    }
    case 'unnest': {
      const b: Binding[] = [{ alias: item.alias ?? null, kind: 'value', columns: [], row: null, value: null }];
      if (item.offsetAlias !== undefined) b.push({ alias: item.offsetAlias, kind: 'value', columns: [], row: null, value: null });
      return b;
    }
    case 'join':
      if (item.using) return usingBindings(item, item.using, shapeOf(item.left, ctx), shapeOf(item.right, ctx));
      return [...shapeOf(item.left, ctx), ...shapeOf(item.right, ctx)];
  }
}

// ─── Names ──────────────────────────────────────────────────────────────────────────────────

function fieldOf(v: V, name: string): V {
  if (!isObj(v)) return null;
  if (name in v) return v[name] ?? null;
  const lower = name.toLowerCase();
  for (const k of Object.keys(v)) if (k.toLowerCase() === lower) return v[k] ?? null;
  return null;
}

function fields(v: V, path: string[]): V {
  let cur = v;
  for (const p of path) cur = fieldOf(cur, p);
  return cur;
}

function findColumn(columns: string[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return columns.find((c) => c.toLowerCase() === lower);
}

function rowAsStruct(b: Binding): V {
  if (b.row === null) return null;
  const o: Row = {};
  for (const c of b.columns) o[c] = b.row[c] ?? null;
  return o;
}

function resolveIn(parts: string[], env: Env): { v: V } | undefined {
  const head = parts[0]!.toLowerCase();
  const rv = env.bindings.filter((b) => b.alias !== null && b.alias.toLowerCase() === head);
  if (rv.length > 1) throw new RingqlError('ambiguous_name', `range variable ${parts[0]} is ambiguous`);
  if (rv.length === 1) {
    const b = rv[0]!;
    if (b.kind === 'value') return { v: fields(b.value, parts.slice(1)) };
    if (parts.length === 1) return { v: rowAsStruct(b) };
    const col = findColumn(b.columns, parts[1]!);
    if (col === undefined) throw new RingqlError('unknown_name', `${parts[0]} has no column ${parts[1]}`);
    return { v: fields(b.row === null ? null : b.row[col] ?? null, parts.slice(2)) };
  }
  const hits = env.bindings.filter((b) => b.kind === 'row' && !b.hidden?.includes(head) && findColumn(b.columns, head) !== undefined);
  if (hits.length > 1) throw new RingqlError('ambiguous_name', `column ${parts[0]} is ambiguous`);
  if (hits.length === 1) {
    const b = hits[0]!;
    const col = findColumn(b.columns, head)!;
    return { v: fields(b.row === null ? null : b.row[col] ?? null, parts.slice(1)) };
  }
  return undefined;
}

function resolve(id: Ident, env: Env): V {
  for (let e: Env | null = env; e; e = e.parent) {
    if (e.nullAll) return null;
    const r = resolveIn(id.parts, e);
    if (r) return r.v;
  }
  throw new RingqlError('unknown_name', `unknown name ${id.parts.join('.')}`);
}

// ─── Expressions ────────────────────────────────────────────────────────────────────────────

function keyOf(v: V): string {
  if (v === null) return 'n';
  if (v instanceof Ts) return 't' + v.us;
  if (v instanceof Iv) return 'i' + v.n + v.unit;
  if (typeof v === 'number') return 'd' + String(v);
  if (typeof v === 'string') return 's' + v;
  if (typeof v === 'boolean') return v ? 'T' : 'F';
  if (Array.isArray(v)) return '[' + v.map(keyOf).join(',') + ']';
  return '{' + Object.keys(v).map((k) => JSON.stringify(k) + ':' + keyOf(v[k]!)).join(',') + '}';
}

/** Reads a string as a timestamp when compared with one (BigQuery literal coercion). */
function coerce(a: V, b: V): [V, V] {
  if (a instanceof Ts && typeof b === 'string') {
    const us = parseTimestamp(b);
    if (us === null) queryError(`invalid timestamp ${b}`);
    return [a, new Ts(us)];
  }
  if (b instanceof Ts && typeof a === 'string') {
    const [y, x] = coerce(b, a);
    return [x, y];
  }
  return [a, b];
}

/** Three-way comparison of non-null values of one kind; null when kinds differ. */
function compare(a0: V, b0: V): number | null {
  if (a0 === null || b0 === null) return null;
  const [a, b] = coerce(a0, b0);
  if (a instanceof Ts && b instanceof Ts) return a.us < b.us ? -1 : a.us > b.us ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : a === b ? 0 : null;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  return null;
}

function equals(a: V, b: V): boolean | null {
  const c = compare(a, b);
  return c === null ? null : c === 0;
}

function and(a: V, b: V): V {
  if (a === false || b === false) return false;
  if (a === null || b === null) return null;
  return true;
}
function or(a: V, b: V): V {
  if (a === true || b === true) return true;
  if (a === null || b === null) return null;
  return false;
}
function not(a: V): V {
  return a === null ? null : !a;
}

/** LIKE by direct matching: `%` any run, `_` one character, `\` escapes the next character. */
function like(s: string, p: string): boolean {
  const sc = [...s];
  const toks: { any: boolean; one: boolean; ch: string }[] = [];
  const pc = [...p];
  for (let i = 0; i < pc.length; i++) {
    const c = pc[i]!;
    if (c === '\\' && i + 1 < pc.length) toks.push({ any: false, one: false, ch: pc[++i]! });
    else if (c === '%') toks.push({ any: true, one: false, ch: '' });
    else if (c === '_') toks.push({ any: false, one: true, ch: '' });
    else toks.push({ any: false, one: false, ch: c });
  }
  // m[i][j]: toks[0..i) matches sc[0..j)
  let prev: boolean[] = new Array<boolean>(sc.length + 1).fill(false);
  prev[0] = true;
  for (const t of toks) {
    const cur: boolean[] = new Array<boolean>(sc.length + 1).fill(false);
    for (let j = 0; j <= sc.length; j++) {
      if (t.any) cur[j] = prev[j]! || (j > 0 && cur[j - 1]!);
      else if (j > 0) cur[j] = prev[j - 1]! && (t.one || sc[j - 1] === t.ch);
    }
    prev = cur;
  }
  return prev[sc.length]!;
}

const num = (v: V): v is number => typeof v === 'number';
const str = (v: V): v is string => typeof v === 'string';

function asTs(v: V): Ts | null {
  if (v === null) return null;
  if (v instanceof Ts) return v;
  if (typeof v === 'string') {
    const us = parseTimestamp(v);
    if (us === null) queryError(`invalid timestamp ${v}`);
    return new Ts(us);
  }
  throw new RingqlError('query_error', 'expected a TIMESTAMP');
}

function datePart(e: Expr | undefined): string {
  if (!e) throw new RingqlError('query_error', 'missing date part');
  if (e.kind === 'ident' && e.parts.length === 1) return e.parts[0]!.toUpperCase();
  throw new ReferenceUnsupported('date part expression');
}

function castTo(v: V, type: string, safe: boolean): V {
  if (v === null) return null;
  const t = type.toUpperCase().replace(/\s+/g, '');
  const fail = (): V => {
    if (safe) return null;
    queryError(`cannot cast ${JSON.stringify(toOut(v))} to ${t}`);
  };
  switch (t) {
    case 'STRING':
      if (str(v)) return v;
      if (typeof v === 'boolean') return v ? 'true' : 'false';
      if (v instanceof Ts) return formatDatetime(v.us).replace('T', ' ') + '+00';
      if (num(v)) return Number.isNaN(v) ? 'nan' : !Number.isFinite(v) ? (v > 0 ? 'inf' : '-inf') : String(v);
      return fail();
    case 'INT64': case 'INT': case 'INTEGER':
      if (num(v)) return Number.isFinite(v) ? Math.sign(v) * Math.round(Math.abs(v)) : fail();
      if (typeof v === 'boolean') return v ? 1 : 0;
      if (str(v) && /^\s*[+-]?\d+\s*$/.test(v)) return Number(v.trim());
      return fail();
    case 'FLOAT64': case 'FLOAT': case 'NUMERIC':
      if (num(v)) return v;
      if (str(v) && /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(v)) return Number(v.trim());
      return fail();
    case 'BOOL': case 'BOOLEAN':
      if (typeof v === 'boolean') return v;
      if (num(v)) return v !== 0;
      if (str(v) && /^\s*(true|false)\s*$/i.test(v)) return v.trim().toLowerCase() === 'true';
      return fail();
    case 'TIMESTAMP': {
      if (v instanceof Ts) return v;
      if (str(v)) {
        const us = parseTimestamp(v);
        return us === null ? fail() : new Ts(us);
      }
      return fail();
    }
    default:
      throw new ReferenceUnsupported(`CAST to ${type}`);
  }
}

/** Evaluates `e` in `env`; `group` is the member rows when aggregates are allowed. */
function evalExpr(e: Expr, env: Env, ctx: Ctx, group: Env[] | null): V {
  const ev = (x: Expr): V => evalExpr(x, env, ctx, group);
  switch (e.kind) {
    case 'literal':
      switch (e.type) {
        case 'timestamp': {
          const us = parseTimestamp(String(e.value));
          if (us === null) queryError(`bad timestamp literal ${String(e.value)}`);
          return new Ts(us);
        }
        case 'int':
          if (typeof e.value === 'string') throw new ReferenceUnsupported('int literal over 2^53');
          return e.value;
        case 'bytes': case 'datetime': case 'date':
          throw new ReferenceUnsupported(`${e.type} literal`);
        default:
          return e.value;
      }
    case 'param':
      return ctx.params.get(e.name) ?? ctx.params.get(e.name.toLowerCase()) ?? null;
    case 'ident':
      return resolve(e, env);
    case 'field':
      return fieldOf(ev(e.base), e.name);
    case 'unary': {
      const a = ev(e.operand);
      if (e.op === 'NOT') return not(a);
      if (e.op === '+') return a;
      if (e.op === '-') return num(a) ? -a : null;
      throw new ReferenceUnsupported(`unary ${e.op}`);
    }
    case 'binary': {
      if (e.op === 'AND') return and(ev(e.left), ev(e.right));
      if (e.op === 'OR') return or(ev(e.left), ev(e.right));
      const a = ev(e.left), b = ev(e.right);
      switch (e.op) {
        case '+': return num(a) && num(b) ? a + b : null;
        case '-': return num(a) && num(b) ? a - b : null;
        case '*': return num(a) && num(b) ? a * b : null;
        case '/':
          if (!num(a) || !num(b)) return null;
          if (b === 0) queryError('division by zero');
          return a / b;
        case '||': return str(a) && str(b) ? a + b : null;
        case '=': return equals(a, b);
        case '!=': { const x = equals(a, b); return x === null ? null : !x; }
        case '<': { const c = compare(a, b); return c === null ? null : c < 0; }
        case '<=': { const c = compare(a, b); return c === null ? null : c <= 0; }
        case '>': { const c = compare(a, b); return c === null ? null : c > 0; }
        case '>=': { const c = compare(a, b); return c === null ? null : c >= 0; }
        default: throw new ReferenceUnsupported(`operator ${e.op}`);
      }
    }
    case 'is': {
      const a = ev(e.operand);
      const r = e.value === 'NULL' ? a === null : e.value === 'TRUE' ? a === true : a === false;
      return e.not ? !r : r;
    }
    case 'in': {
      const a = ev(e.operand);
      return inValues(a, e.list.map(ev), e.not);
    }
    case 'inSubquery': {
      const a = ev(e.operand);
      const rel = evalQuery(e.query, ctx, env);
      if (rel.columns.length !== 1) throw new RingqlError('query_error', 'IN subquery must return one column');
      return inValues(a, rel.rows.map((r) => r[rel.columns[0]!] ?? null), e.not);
    }
    case 'inUnnest': {
      const a = ev(e.operand);
      const arr = ev(e.array);
      return inValues(a, Array.isArray(arr) ? arr : [], e.not);
    }
    case 'between': {
      const a = ev(e.operand), lo = ev(e.low), hi = ev(e.high);
      const c1 = compare(a, lo), c2 = compare(a, hi);
      const r = and(c1 === null ? null : c1 >= 0, c2 === null ? null : c2 <= 0);
      return e.not ? not(r) : r;
    }
    case 'like': {
      const a = ev(e.operand), p = ev(e.pattern);
      if (!str(a) || !str(p)) return null;
      const r = like(a, p);
      return e.not ? !r : r;
    }
    case 'case': {
      if (e.operand) {
        const x = ev(e.operand);
        for (const w of e.whens) if (equals(x, ev(w.when)) === true) return ev(w.then);
      } else {
        for (const w of e.whens) if (ev(w.when) === true) return ev(w.then);
      }
      return e.else ? ev(e.else) : null;
    }
    case 'cast':
      return castTo(ev(e.expr), e.type, e.safe);
    case 'interval': {
      const n = ev(e.value);
      if (!num(n)) throw new RingqlError('query_error', 'INTERVAL needs a number');
      return new Iv(n, e.unit.toUpperCase());
    }
    case 'subscript': {
      const base = ev(e.base), idx = ev(e.index);
      if (base === null || idx === null) return null;
      if (!num(idx)) throw new RingqlError('query_error', 'subscript must be a number');
      if (isObj(base) && e.mode === 'plain') return base[Object.keys(base)[idx]!] ?? null;
      if (!Array.isArray(base)) throw new RingqlError('query_error', 'subscript of a non-array');
      const i = e.mode === 'ordinal' || e.mode === 'safe_ordinal' ? idx - 1 : idx;
      if (i < 0 || i >= base.length) {
        if (e.mode === 'safe_offset' || e.mode === 'safe_ordinal') return null;
        queryError(`array index ${idx} out of bounds`);
      }
      return base[i] ?? null;
    }
    case 'exists':
      return evalQuery(e.query, ctx, env).rows.length > 0;
    case 'subquery': {
      const rel = evalQuery(e.query, ctx, env);
      if (rel.columns.length !== 1) throw new RingqlError('query_error', 'scalar subquery must return one column');
      if (rel.rows.length > 1) queryError('scalar subquery returned more than one row');
      return rel.rows.length === 0 ? null : rel.rows[0]![rel.columns[0]!] ?? null;
    }
    case 'array':
      return e.elements.map(ev);
    case 'struct': {
      const o: Row = {};
      e.fields.forEach((f, i) => (o[f.alias ?? `_field_${i + 1}`] = ev(f.expr)));
      return o;
    }
    case 'extract':
      throw new ReferenceUnsupported('EXTRACT');
    case 'call':
      return evalCall(e, env, ctx, group);
  }
}

function inValues(a: V, list: V[], negate: boolean): V {
  if (a === null) return null;
  let sawNull = false;
  for (const x of list) {
    const eq = equals(a, x);
    if (eq === true) return !negate;
    if (eq === null) sawNull = true;
  }
  return sawNull ? null : negate;
}

function evalAggregate(e: Extract<Expr, { kind: 'call' }>, ctx: Ctx, group: Env[]): V {
  const name = e.name.toUpperCase();
  if (name === 'COUNT' && e.star) return group.length;
  if (e.args.length !== 1) throw new ReferenceUnsupported(`${name} with ${e.args.length} arguments`);
  let vals = group.map((env) => evalExpr(e.args[0]!, env, ctx, null));
  if (name === 'COUNTIF' || name === 'COUNT_IF') return vals.filter((v) => v === true).length;
  vals = vals.filter((v) => v !== null);
  if (e.distinct) {
    const seen = new Set<string>();
    vals = vals.filter((v) => (seen.has(keyOf(v)) ? false : (seen.add(keyOf(v)), true)));
  }
  switch (name) {
    case 'COUNT':
    case 'APPROX_COUNT_DISTINCT':
      return vals.length;
    case 'SUM': {
      if (vals.length === 0) return null;
      if (!vals.every(num)) throw new RingqlError('query_error', 'SUM of non-numbers');
      return (vals as number[]).reduce((s, x) => s + x, 0);
    }
    case 'AVG': {
      if (vals.length === 0) return null;
      if (!vals.every(num)) throw new RingqlError('query_error', 'AVG of non-numbers');
      return (vals as number[]).reduce((s, x) => s + x, 0) / vals.length;
    }
    case 'MIN':
    case 'MAX': {
      let best: V = null;
      for (const v of vals) {
        if (best === null) { best = v; continue; }
        const c = compare(v, best);
        if (c !== null && (name === 'MIN' ? c < 0 : c > 0)) best = v;
      }
      return best;
    }
    case 'LOGICAL_AND':
      return vals.length === 0 ? null : vals.every((v) => v === true);
    case 'LOGICAL_OR':
      return vals.length === 0 ? null : vals.some((v) => v === true);
    default:
      throw new ReferenceUnsupported(`aggregate ${name}`);
  }
}

function evalCall(e: Extract<Expr, { kind: 'call' }>, env: Env, ctx: Ctx, group: Env[] | null): V {
  const name = e.name.toUpperCase();
  if (AGGREGATES.has(name)) {
    if (group === null) throw new RingqlError('query_error', `aggregate ${name} not allowed here`);
    return evalAggregate(e, ctx, group);
  }
  const ev = (x: Expr): V => evalExpr(x, env, ctx, group);
  const args = (): V[] => e.args.map(ev);
  const safe = <T extends V>(f: () => T): V => {
    if (!e.safe) return f();
    try {
      return f();
    } catch (err) {
      if (err instanceof RingqlError && err.code === 'query_error') return null;
      throw err;
    }
  };
  return safe(() => {
    switch (name) {
      case 'COALESCE': {
        for (const a of e.args) { const v = ev(a); if (v !== null) return v; }
        return null;
      }
      case 'IF': {
        const c = ev(e.args[0]!);
        return c === true ? ev(e.args[1]!) : ev(e.args[2]!);
      }
      case 'IFNULL': {
        const a = ev(e.args[0]!);
        return a !== null ? a : ev(e.args[1]!);
      }
      case 'NULLIF': {
        const [a, b] = args();
        return equals(a!, b!) === true ? null : a!;
      }
      case 'CONCAT': {
        const vs = args();
        if (vs.some((v) => v === null)) return null;
        if (!vs.every(str)) throw new RingqlError('query_error', 'CONCAT of non-strings');
        return vs.join('');
      }
      case 'LOWER': { const [a] = args(); return str(a!) ? a.toLowerCase() : null; }
      case 'UPPER': { const [a] = args(); return str(a!) ? a.toUpperCase() : null; }
      case 'LENGTH': case 'CHAR_LENGTH': { const [a] = args(); return str(a!) ? [...a].length : null; }
      case 'STRPOS': case 'INSTR': {
        if (name === 'INSTR' && e.args.length > 2) throw new ReferenceUnsupported('INSTR with position');
        const [a, b] = args();
        if (!str(a!) || !str(b!)) return null;
        const i = a.indexOf(b);
        return i < 0 ? 0 : [...a.slice(0, i)].length + 1;
      }
      case 'STARTS_WITH': { const [a, b] = args(); return str(a!) && str(b!) ? a.startsWith(b) : null; }
      case 'ENDS_WITH': { const [a, b] = args(); return str(a!) && str(b!) ? a.endsWith(b) : null; }
      case 'REPLACE': {
        const [a, b, c] = args();
        if (!str(a!) || !str(b!) || !str(c!)) return null;
        return b === '' ? a : a.split(b).join(c);
      }
      case 'TRIM': {
        if (e.args.length > 1) throw new ReferenceUnsupported('TRIM with characters');
        const [a] = args();
        return str(a!) ? a.replace(/^\s+|\s+$/g, '') : null;
      }
      case 'SUBSTR': case 'SUBSTRING': {
        const [a, p, l] = args();
        if (!str(a!) || !num(p!) || (e.args.length > 2 && !num(l!))) return null;
        const cs = [...a];
        const start = p > 0 ? p - 1 : p === 0 ? 0 : Math.max(0, cs.length + p);
        if (typeof l === 'number' && l < 0) queryError('SUBSTR length is negative');
        return cs.slice(start, typeof l === 'number' ? start + l : undefined).join('');
      }
      case 'REGEXP_CONTAINS': {
        const [a, p] = args();
        if (!str(a!) || !str(p!)) return null;
        return compileRegex(p).test(a);
      }
      case 'ABS': { const [a] = args(); return num(a!) ? Math.abs(a) : null; }
      case 'SAFE_DIVIDE': {
        const [a, b] = args();
        return num(a!) && num(b!) && b !== 0 ? a / b : null;
      }
      case 'GREATEST': case 'LEAST': {
        const vs = args();
        if (vs.some((v) => v === null)) return null;
        let best: V = vs[0] ?? null;
        for (const v of vs.slice(1)) {
          const c = compare(v, best);
          if (c !== null && (name === 'GREATEST' ? c > 0 : c < 0)) best = v;
        }
        return best;
      }
      case 'CURRENT_TIMESTAMP':
        return new Ts(ctx.nowUs);
      case 'TIMESTAMP': {
        if (e.args.length > 1) throw new ReferenceUnsupported('TIMESTAMP with a zone');
        return asTs(ev(e.args[0]!));
      }
      case 'TIMESTAMP_TRUNC': {
        if (e.args.length > 2) {
          const z = ev(e.args[2]!);
          if (z !== 'UTC') throw new ReferenceUnsupported('TIMESTAMP_TRUNC zone other than UTC');
        }
        const t = asTs(ev(e.args[0]!));
        return t === null ? null : new Ts(truncTimestamp(t.us, datePart(e.args[1])));
      }
      case 'TIMESTAMP_ADD': case 'TIMESTAMP_SUB': {
        const t = asTs(ev(e.args[0]!));
        const iv = ev(e.args[1]!);
        if (t === null) return null;
        if (!(iv instanceof Iv)) throw new RingqlError('query_error', `${name} needs an INTERVAL`);
        return new Ts(addInterval(t.us, name === 'TIMESTAMP_ADD' ? iv.n : -iv.n, iv.unit));
      }
      case 'TIMESTAMP_DIFF': {
        const a = asTs(ev(e.args[0]!)), b = asTs(ev(e.args[1]!));
        return a === null || b === null ? null : diffTimestamp(a.us, b.us, datePart(e.args[2]));
      }
      case 'DATETIME': case 'DATE': {
        if (e.args.length > 1 && ev(e.args[1]!) !== 'UTC') throw new ReferenceUnsupported(`${name} zone other than UTC`);
        const t = asTs(ev(e.args[0]!));
        if (t === null) return null;
        const s = formatDatetime(t.us);
        return name === 'DATE' ? s.slice(0, 10) : s;
      }
      case 'UNIX_MICROS': case 'UNIX_MILLIS': case 'UNIX_SECONDS': {
        const t = asTs(ev(e.args[0]!));
        if (t === null) return null;
        return name === 'UNIX_MICROS' ? t.us : Math.floor(t.us / (name === 'UNIX_MILLIS' ? 1000 : 1_000_000));
      }
      case 'TIMESTAMP_MICROS': case 'TIMESTAMP_MILLIS': case 'TIMESTAMP_SECONDS': {
        const [a] = args();
        if (!num(a!)) return null;
        return new Ts(a * (name === 'TIMESTAMP_MICROS' ? 1 : name === 'TIMESTAMP_MILLIS' ? 1000 : 1_000_000));
      }
      case 'ARRAY_LENGTH': {
        const [a] = args();
        return Array.isArray(a) ? a.length : null;
      }
      default:
        throw new ReferenceUnsupported(`function ${name}`);
    }
  });
}
