// fast-check generators of well-formed ASTs in the parser's canonical shape (what parseQuery
// returns, positions aside), for print → parse properties.

import fc from 'fast-check';
import type { BinaryOp, Expr, FromItem, Literal, Query, Select, SelectItem } from '../../src/sql/ast.ts';

const plainName = fc.constantFrom('a', 'b', 'ts', 'timestamp', 'start', 'count', 'level', 'path', 'status', 'hour', 'date', 'x1', 'interval');
const quotedName = fc.constantFrom('edge.logs.prod', 'function-relay-logs', 'select', 'a b', 'tick`s');
const part = fc.oneof({ weight: 4, arbitrary: plainName.map((p) => ({ p, q: false })) }, { weight: 1, arbitrary: quotedName.map((p) => ({ p, q: true })) });

const ident: fc.Arbitrary<Expr> = fc.array(part, { minLength: 1, maxLength: 3 }).map((ps) => {
  const id: Expr = { kind: 'ident', parts: ps.map((x) => x.p) };
  if (ps.some((x) => x.q)) id.quoted = ps.map((x) => x.q);
  // A lone `current_timestamp` would read back as a call; the pool has no such name.
  return id;
});

const literal: fc.Arbitrary<Literal> = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).filter((n) => n !== 0 || Object.is(n, 0)).map((value) => ({ kind: 'literal', type: 'int', value }) as Literal),
  fc.constantFrom('9007199254740993', '-9223372036854775808').map((value) => ({ kind: 'literal', type: 'int', value }) as Literal),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((v) => !Object.is(v, -0)).map((value) => ({ kind: 'literal', type: 'float', value }) as Literal),
  fc.string({ maxLength: 12 }).map((value) => ({ kind: 'literal', type: 'string', value }) as Literal),
  fc.string({ maxLength: 6 }).map((value) => ({ kind: 'literal', type: 'bytes', value }) as Literal),
  fc.boolean().map((value) => ({ kind: 'literal', type: 'bool', value }) as Literal),
  fc.constant({ kind: 'literal', type: 'null', value: null } as Literal),
  fc.constantFrom('timestamp', 'datetime', 'date').map((type) => ({ kind: 'literal', type, value: '2024-01-01 00:00:00' }) as Literal),
);

const param: fc.Arbitrary<Expr> = fc.constantFrom('project', 'interval', 'iso_timestamp_start', 'limit').map((name) => ({ kind: 'param', name }));
const binaryOps: BinaryOp[] = ['+', '-', '*', '/', '||', '=', '!=', '<', '<=', '>', '>=', 'AND', 'OR', '&', '|', '^', '<<', '>>'];
const callNames = fc.constantFrom('COUNT', 'REGEXP_CONTAINS', 'IF', 'TIMESTAMP_SUB', 'COALESCE', 'CURRENT_TIMESTAMP', 'LEFT', 'NET.HOST');
const types = fc.constantFrom('INT64', 'STRING', 'FLOAT64', 'TIMESTAMP', 'ARRAY<STRING>', 'STRUCT<a INT64, b ARRAY<STRING>>', 'NUMERIC(10, 2)');
const units = fc.constantFrom('MICROSECOND', 'SECOND', 'MINUTE', 'HOUR', 'DAY');

function exprArb(depth: number, query: fc.Arbitrary<Query> | undefined): fc.Arbitrary<Expr> {
  const leaf = fc.oneof(literal as fc.Arbitrary<Expr>, ident, param);
  if (depth <= 0) return leaf;
  const e = exprArb(depth - 1, query);
  const list = fc.array(e, { minLength: 1, maxLength: 3 });
  const not = fc.boolean();
  const compound: fc.Arbitrary<Expr>[] = [
    fc.record({ kind: fc.constant('binary' as const), op: fc.constantFrom(...binaryOps), left: e, right: e }),
    fc.record({ kind: fc.constant('unary' as const), op: fc.constantFrom('NOT' as const, '-' as const, '+' as const, '~' as const), operand: e }),
    fc.record({ kind: fc.constant('is' as const), operand: e, not, value: fc.constantFrom('NULL' as const, 'TRUE' as const, 'FALSE' as const) }),
    // `x IN ((SELECT ...))` reads as IN (subquery), as in BigQuery, so a lone subquery is no list.
    fc.record({ kind: fc.constant('in' as const), operand: e, not, list }).filter((i) => i.list.length > 1 || i.list[0]!.kind !== 'subquery'),
    fc.record({ kind: fc.constant('inUnnest' as const), operand: e, not, array: e }),
    fc.record({ kind: fc.constant('between' as const), operand: e, not, low: e, high: e }),
    fc.record({ kind: fc.constant('like' as const), operand: e, not, pattern: e }),
    fc.record(
      { kind: fc.constant('case' as const), operand: e, whens: fc.array(fc.record({ when: e, then: e }), { minLength: 1, maxLength: 2 }), else: e },
      { requiredKeys: ['kind', 'whens'] },
    ),
    fc.record({ kind: fc.constant('cast' as const), expr: e, type: types, safe: fc.boolean() }),
    fc.record({ kind: fc.constant('interval' as const), value: e, unit: units }),
    fc.record({ kind: fc.constant('subscript' as const), base: e, index: e, mode: fc.constantFrom('offset' as const, 'safe_offset' as const, 'ordinal' as const, 'safe_ordinal' as const, 'plain' as const) })
      .filter((s) => s.mode !== 'plain' || s.index.kind !== 'call'),
    fc.record({ kind: fc.constant('field' as const), base: e, name: plainName }),
    fc.record({ kind: fc.constant('array' as const), elements: fc.array(e, { maxLength: 3 }) }),
    fc.record({ kind: fc.constant('array' as const), elements: list, elementType: types }),
    fc.record({ kind: fc.constant('struct' as const), fields: fc.array(fc.record({ expr: e, alias: plainName }, { requiredKeys: ['expr'] }), { maxLength: 3 }) }),
    fc.record({ kind: fc.constant('extract' as const), part: fc.constantFrom('HOUR', 'DAYOFWEEK', 'DATE', 'WEEK(MONDAY)'), expr: e }),
    fc.record(
      { kind: fc.constant('call' as const), name: callNames, args: fc.array(e, { maxLength: 3 }), distinct: fc.constant(true), safe: fc.constant(true) },
      { requiredKeys: ['kind', 'name', 'args'] },
    ).filter((c) => !c.distinct || c.args.length > 0),
    fc.constant({ kind: 'call', name: 'COUNT', args: [], star: true } as Expr),
  ];
  if (query) {
    compound.push(
      fc.record({ kind: fc.constant('subquery' as const), query }),
      fc.record({ kind: fc.constant('exists' as const), query }),
      fc.record({ kind: fc.constant('inSubquery' as const), operand: e, not, query }),
    );
  }
  return fc.oneof({ weight: 3, arbitrary: leaf }, { weight: 5, arbitrary: fc.oneof(...compound) });
}

/** Expressions without subqueries, up to `depth` levels of operators. */
export const exprArbitrary = (depth = 3): fc.Arbitrary<Expr> => exprArb(depth, undefined);

const table: fc.Arbitrary<FromItem> = fc.record(
  { kind: fc.constant('table' as const), name: fc.constantFrom('edge_logs', 'edge.logs.prod', 'p.d.t').map((n) => (n === 'edge.logs.prod' ? [n] : n.split('.'))), alias: plainName },
  { requiredKeys: ['kind', 'name'] },
).map((t) => (t.name[0] === 'edge.logs.prod' ? { ...t, quoted: [true] } : t));

function selectArb(e: fc.Arbitrary<Expr>): fc.Arbitrary<Select> {
  const item: fc.Arbitrary<SelectItem> = fc.oneof(
    fc.record({ kind: fc.constant('expr' as const), expr: e, alias: plainName }, { requiredKeys: ['kind', 'expr'] }),
    fc.record({ kind: fc.constant('star' as const), qualifier: fc.constant('t').map((t) => [t]), except: fc.constant('a,b').map((x) => x.split(',')) }, { requiredKeys: ['kind'] }),
  );
  const unnest: fc.Arbitrary<FromItem> = fc.record(
    { kind: fc.constant('unnest' as const), expr: e, alias: plainName, offsetAlias: plainName },
    { requiredKeys: ['kind', 'expr'] },
  );
  const from: fc.Arbitrary<FromItem> = fc.tuple(table, fc.array(fc.tuple(fc.constantFrom('COMMA', 'CROSS', 'LEFT', 'INNER') , fc.oneof(table, unnest), e), { maxLength: 2 }))
    .map(([first, joins]) => joins.reduce<FromItem>((left, [type, right, on]) => {
      if (type === 'COMMA' || type === 'CROSS') return { kind: 'join', type, left, right };
      return { kind: 'join', type: type as 'LEFT' | 'INNER', left, right, on };
    }, first));
  return fc.record(
    {
      kind: fc.constant('select' as const),
      distinct: fc.boolean(),
      items: fc.array(item, { minLength: 1, maxLength: 3 }),
      from,
      where: e,
      groupBy: fc.array(e, { minLength: 1, maxLength: 2 }),
      having: e,
      qualify: e,
    },
    { requiredKeys: ['kind', 'distinct', 'items'] },
  );
}

/** Small queries whose expressions may hold (shallower) subqueries. */
export function queryArbitrary(depth = 2): fc.Arbitrary<Query> {
  const inner: fc.Arbitrary<Query> | undefined = depth > 1 ? queryArbitrary(depth - 1) : undefined;
  const e = exprArb(2, inner);
  const sel = selectArb(e);
  const body = fc.oneof(
    { weight: 3, arbitrary: sel },
    fc.record({ kind: fc.constant('setop' as const), op: fc.constantFrom('UNION' as const, 'INTERSECT' as const, 'EXCEPT' as const), all: fc.boolean(), left: sel, right: sel }),
  );
  const order = fc.array(fc.record({ expr: e, desc: fc.boolean(), nulls: fc.constantFrom('first' as const, 'last' as const) }, { requiredKeys: ['expr', 'desc'] }), { minLength: 1, maxLength: 2 });
  return fc.record(
    {
      kind: fc.constant('query' as const),
      with: fc.array(fc.record({ name: plainName, query: inner ?? fc.constant({ kind: 'query', body: { kind: 'select', distinct: false, items: [{ kind: 'star' }] } } as Query) }), { minLength: 1, maxLength: 2 }),
      body,
      orderBy: order,
      limit: fc.oneof(literal as fc.Arbitrary<Expr>, param),
      offset: fc.integer({ min: 0, max: 100 }).map((value) => ({ kind: 'literal', type: 'int', value }) as Expr),
    },
    { requiredKeys: ['kind', 'body'] },
  ).filter((q) => q.offset === undefined || q.limit !== undefined);
}
