// Compiles LQL (SPEC §5) into one SQL Query AST over one of the saved query's CTEs, without a WITH
// clause: the engine splices it in as the consumer query. Rows newest first, or a count/time chart.

import { RingqlError } from '../core/errors.ts';
import type { Expr, OrderItem, Query, Select, SelectItem } from '../sql/ast.ts';
import { FieldScope, expandPath, ident } from './field-scope.ts';
import { call, filterExpr } from './filters.ts';
import { pickCte, type CteInfo } from './pick-cte.ts';
import { readTerms } from './read-terms.ts';
import type { FilterTerm, Term, TimeUnit } from './terms.ts';

export type { CteInfo };

export function compileLql(text: string, ctes: CteInfo[]): Query {
  const terms = readTerms(text);
  const cte = pickCte(terms, ctes);
  const scope = new FieldScope(cte.name, cte.columns);
  const filters = terms.filter(isFilter);
  const conds = filters.map((t) => filterExpr(t, scope));
  const where = conds.reduce<Expr | undefined>((acc, c) => (acc ? { kind: 'binary', op: 'AND', left: acc, right: c } : c), undefined);

  const chart = chartOf(terms);
  // As the reference's sandboxed LQL: a chart ignores s: terms, and `s:*` anywhere means the
  // default columns (as if no s: were written).
  const selects = terms.flatMap((t) => (t.kind === 'select' ? [t] : []));
  const explicit = selects.some((s) => s.path.length === 0) ? [] : selects;

  let items: SelectItem[];
  let groupBy: Expr[] | undefined;
  let orderBy: OrderItem[] | undefined;
  if (chart) {
    const count: SelectItem = { kind: 'expr', expr: chartValue(chart.aggregate, scope), alias: 'count' };
    const ts = scope.column('timestamp', chart.column);
    items = [{ kind: 'expr', expr: call('TIMESTAMP_TRUNC', ts, ident(chart.unit)), alias: 'timestamp' }, count];
    groupBy = [ident('timestamp')];
    orderBy = [{ expr: ident('timestamp'), desc: false }];
  } else {
    items = explicit.length ? selectItems(explicit, scope) : defaultItems(filters, scope);
    if (scope.hasColumn('timestamp')) orderBy = [{ expr: scope.column('timestamp', 1), desc: true }];
  }

  // Build FROM last: every path above has registered its joins by now.
  const body: Select = { kind: 'select', distinct: false, items, from: scope.from() };
  if (where) body.where = where;
  if (groupBy) body.groupBy = groupBy;
  const query: Query = { kind: 'query', body };
  if (orderBy) query.orderBy = orderBy;
  return query;
}

function isFilter(t: Term): t is FilterTerm {
  return t.kind === 'text' || t.kind === 'regex' || t.kind === 'field' || t.kind === 'time' || t.kind === 'last' || t.kind === 'shorthand';
}

/**
 * `c:count(*)` or one `c:<aggregate>(<path>)`, with an optional `c:group_by(t::unit)` (per minute by
 * default, as the reference); `c:group_by` alone counts rows; null without c:.
 */
function chartOf(terms: Term[]): { unit: TimeUnit; column: number; aggregate: ChartTerm | null } | null {
  const counts = terms.filter((t): t is ChartTerm | Extract<Term, { kind: 'count' }> => t.kind === 'count' || t.kind === 'aggregate');
  const aggs = counts.flatMap((t) => (t.kind === 'aggregate' ? [t] : []));
  if (counts.length > 1 && aggs.length > 0) {
    throw new RingqlError('invalid_parameter', 'LQL charts one value: write one c:count(*) or one c:<aggregate>(<field>)', { param: 'lql' });
  }
  const aggregate = aggs[0] ?? null;
  const groups = terms.flatMap((t) => (t.kind === 'groupBy' ? [t] : []));
  if (counts.length === 0 && groups.length === 0) return null;
  const units = [...new Set(groups.map((g) => g.unit))];
  if (units.length > 1) {
    throw new RingqlError('invalid_parameter', `LQL may group by one time unit, found ${units.join(' and ').toLowerCase()}`, { param: 'lql' });
  }
  // `c:group_by(...)` alone charts COUNT(*) per that unit, as the reference's default chart rule.
  const g = groups[0];
  return g ? { unit: g.unit, column: g.column, aggregate } : { unit: 'MINUTE', column: counts[0]!.column, aggregate };
}

type ChartTerm = Extract<Term, { kind: 'aggregate' }>;

/**
 * The charted value, named `count` whatever it computes (as the reference's chart rows): COUNT(*);
 * `count(f)` counts rows too (the reference ignores the field, which still must exist); `countd` is
 * COUNT(DISTINCT f); `pNN` is APPROX_QUANTILES(f, 100)[OFFSET(NN)].
 */
function chartValue(agg: ChartTerm | null, scope: FieldScope): Expr {
  if (agg === null) return { kind: 'call', name: 'COUNT', args: [], star: true };
  const x = scope.path(timePath(expandPath(agg.path)), 'filter', agg.column);
  switch (agg.fn) {
    case 'count': return { kind: 'call', name: 'COUNT', args: [], star: true };
    case 'countd': return { kind: 'call', name: 'COUNT', args: [x], distinct: true };
    case 'p50': case 'p95': case 'p99': {
      const q = call('APPROX_QUANTILES', x, { kind: 'literal', type: 'int', value: 100 });
      return { kind: 'subscript', base: q, index: { kind: 'literal', type: 'int', value: Number(agg.fn.slice(1)) }, mode: 'offset' };
    }
    default: return call(agg.fn.toUpperCase(), x);
  }
}

/** `s:` paths: column named by the alias (`s:path@alias`) or the last segment; a later path whose name is taken gets `a_b_c`. */
function selectItems(selects: { path: string[]; alias?: string; column: number }[], scope: FieldScope): SelectItem[] {
  const items: SelectItem[] = [];
  const seenPaths = new Set<string>();
  const names = new Set<string>();
  for (const s of selects) {
    const path = timePath(expandPath(s.path));
    const key = path.join('.').toLowerCase() + (s.alias ? '@' + s.alias.toLowerCase() : '');
    if (seenPaths.has(key)) continue;
    seenPaths.add(key);
    const expr = scope.path(path, 'keep', s.column);
    const name = s.alias ?? path[path.length - 1]!;
    if (s.alias) {
      if (names.has(name.toLowerCase())) throw new RingqlError('invalid_parameter', `LQL select alias @${name} names two columns`, { param: 'lql' });
      names.add(name.toLowerCase());
      items.push({ kind: 'expr', expr, alias: name });
    } else if (names.has(name.toLowerCase())) {
      const alias = path.join('_');
      names.add(alias.toLowerCase());
      items.push({ kind: 'expr', expr, alias });
    } else {
      names.add(name.toLowerCase());
      items.push({ kind: 'expr', expr });
    }
  }
  return items;
}

/** `s:t` means the timestamp, as in filters. */
function timePath(path: string[]): string[] {
  return path.length === 1 && path[0] === 't' ? ['timestamp'] : path;
}

/** `id, timestamp, event_message` (those the CTE has) plus each filtered field, first name wins. */
function defaultItems(filters: FilterTerm[], scope: FieldScope): SelectItem[] {
  const items: SelectItem[] = [];
  const names = new Set<string>();
  for (const c of ['id', 'timestamp', 'event_message']) {
    if (!scope.hasColumn(c)) continue;
    items.push({ kind: 'expr', expr: scope.column(c, 1) });
    names.add(c);
  }
  for (const f of filters) {
    if (f.kind !== 'field') continue;
    const path = expandPath(f.path);
    const name = path[path.length - 1]!.toLowerCase();
    if (names.has(name)) continue;
    names.add(name);
    items.push({ kind: 'expr', expr: scope.path(path, f.value.kind === 'null' ? 'keep' : 'filter', f.column) });
  }
  return items;
}
