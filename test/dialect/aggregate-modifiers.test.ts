// Aggregate modifiers as BigQuery defines them: ARRAY_AGG(x [IGNORE|RESPECT NULLS] [ORDER BY ...]
// [LIMIT n]), STRING_AGG(x [, sep] [ORDER BY ...] [LIMIT n]); a query error for any other use.

import { describe, expect, it } from 'vitest';
import { errorOf, rows } from './run-sql.ts';
import { canonicalPlanKey } from '../../src/plan/canonical.ts';
import { planSql, querySql } from '../../src/endpoints/query-sql.ts';
import { fixtureStore, FIXTURE_NOW } from '../helpers/fixture-store.ts';
import { instantiate, prepare } from '../../src/engine/engine.ts';
import { parseSavedQuery } from '../../src/endpoints/prepare.ts';
import { catalogFromStore } from '../../src/endpoints/store-catalog.ts';
import { runToRows } from '../../src/exec/run.ts';

const ABC = "with t as (select 'b' as id union all select 'a' union all select 'c')";
// v with sort key k (a NULL key, a tie on k=2) and a NULL value.
const KV = `with t as (select 'n' as v, cast(null as int64) as k union all select 'a', 1 union all select 'b', 2
  union all select 'c', 2 union all select cast(null as string), 3)`;
const one = (sql: string) => rows(sql)[0]!;

describe('ORDER BY inside an aggregate', () => {
  it('orders STRING_AGG and ARRAY_AGG by the key (the issue query)', () => {
    expect(one(`${ABC} select string_agg(id, ',' order by id) as s, array_agg(id order by id) as a from t`)).toEqual({ s: 'a,b,c', a: ['a', 'b', 'c'] });
    expect(one(`${ABC} select string_agg(id, '-' order by id desc) as s, array_agg(id order by id desc) as a from t`)).toEqual({ s: 'c-b-a', a: ['c', 'b', 'a'] });
  });

  it('sorts by any expression over the input row, several keys, ties broken by the next key', () => {
    expect(one(`${KV} select array_agg(v ignore nulls order by k desc, v desc) as a from t`)).toEqual({ a: ['c', 'b', 'a', 'n'] });
    expect(one(`${KV} select string_agg(v, '' order by k, v desc) as s from t`)).toEqual({ s: 'nacb' });
    expect(one(`${ABC} select array_agg(id order by case id when 'a' then 3 when 'b' then 2 else 1 end) as a from t`)).toEqual({ a: ['c', 'b', 'a'] });
  });

  it('puts NULL keys first ascending and last descending, unless NULLS FIRST/LAST says otherwise', () => {
    const q = (order: string) => one(`${KV} select string_agg(v, '' order by ${order}) as s from t where k is null or k < 3`).s;
    // keys: n→NULL, a→1, b→2, c→2 (ties on 2 resolved by v)
    expect(q('k, v')).toBe('nabc');
    expect(q('k desc, v')).toBe('bcan');
    expect(q('k asc nulls last, v')).toBe('abcn');
    expect(q('k desc nulls first, v')).toBe('nbca');
  });

  it('keeps both tied rows (in some order) when the keys tie', () => {
    const s = one(`${KV} select string_agg(v, '' order by k) as s from t where k = 2`).s;
    expect(['bc', 'cb']).toContain(s);
  });

  it('orders each group of a GROUP BY on its own', () => {
    const sql = `with t as (select 1 as g, 'x' as v, 3 as k union all select 2, 'p', 1 union all select 1, 'y', 1
      union all select 2, 'q', 2 union all select 1, 'z', 2 union all select 3, 'm', 5)
      select g, string_agg(v, '' order by k desc) as s, array_agg(v order by k limit 2) as a from t group by g order by g`;
    expect(rows(sql)).toEqual([
      { g: 1, s: 'xzy', a: ['y', 'z'] },
      { g: 2, s: 'qp', a: ['p', 'q'] },
      { g: 3, s: 'm', a: ['m'] },
    ]);
  });
});

describe('IGNORE NULLS / RESPECT NULLS', () => {
  it('ARRAY_AGG IGNORE NULLS drops NULL values instead of failing', () => {
    expect(one(`${KV} select array_agg(v ignore nulls order by v) as a from t`)).toEqual({ a: ['a', 'b', 'c', 'n'] });
    const unordered = one(`${KV} select array_agg(v ignore nulls) as a from t`).a as string[];
    expect([...unordered].sort()).toEqual(['a', 'b', 'c', 'n']);
  });

  it('RESPECT NULLS (the default) still refuses a NULL element', () => {
    expect(errorOf(`${KV} select array_agg(v respect nulls) as a from t`).message).toMatch(/cannot contain NULL/);
    expect(errorOf(`${KV} select array_agg(v) as a from t`).message).toMatch(/cannot contain NULL/);
  });
});

describe('LIMIT inside an aggregate', () => {
  it('keeps the first n inputs in ORDER BY order', () => {
    expect(one(`${ABC} select array_agg(id order by id limit 2) as a, string_agg(id order by id desc limit 2) as s from t`)).toEqual({ a: ['a', 'b'], s: 'c,b' });
    expect(one(`${ABC} select array_agg(id order by id limit 10) as a from t`)).toEqual({ a: ['a', 'b', 'c'] });
  });

  it('without ORDER BY keeps n of the inputs', () => {
    const a = one(`${ABC} select array_agg(id limit 2) as a from t`).a as string[];
    expect(a).toHaveLength(2);
    expect(['a', 'b', 'c']).toEqual(expect.arrayContaining(a));
  });

  it('combines with IGNORE NULLS (NULLs are not counted; STRING_AGG never counts them)', () => {
    // v ordered by k desc: NULL(3), c, b, a, n — the NULL value is dropped before the limit.
    expect(one(`${KV} select array_agg(v ignore nulls order by k desc, v desc limit 2) as a from t`)).toEqual({ a: ['c', 'b'] });
    expect(one(`${KV} select string_agg(v, '' order by k desc, v desc limit 2) as s from t`)).toEqual({ s: 'cb' });
  });

  it('takes a query parameter as n', () => {
    const store = fixtureStore();
    const q = `${ABC} select array_agg(id order by id limit @n) as a from t`;
    expect(querySql(store, q, { nowUs: FIXTURE_NOW, params: new Map([['n', '1']]) })).toEqual([{ a: ['a'] }]);
    expect(querySql(store, q, { nowUs: FIXTURE_NOW, params: new Map([['n', '2']]) })).toEqual([{ a: ['a', 'b'] }]);
  });

  it('a prepared query re-plans for each LIMIT parameter value (no shared template)', () => {
    const prep = prepare(parseSavedQuery(`${ABC} select array_agg(id order by id limit @n) as a from t`), { catalog: catalogFromStore(fixtureStore()), declaredParams: null, physical: {} });
    const run = (n: string) => runToRows(instantiate(prep, new Map([['n', n]]), { nowUs: FIXTURE_NOW }).logical);
    for (const [n, want] of [['1', ['a']], ['3', ['a', 'b', 'c']], ['2', ['a', 'b']], ['1', ['a']], ['2', ['a', 'b']]] as const) {
      expect(run(n), `n=${n}`).toEqual([{ a: want }]);
    }
    // A parameter in an ORDER BY key: templates put each new value in.
    const byDir = prepare(parseSavedQuery(`${ABC} select string_agg(id, '' order by if(@dir = 'up', id, null), id desc) as s from t`), { catalog: catalogFromStore(fixtureStore()), declaredParams: null, physical: {} });
    for (const dir of ['up', 'down', 'up', 'sideways', 'up', 'down']) {
      const got = runToRows(instantiate(byDir, new Map([['dir', dir]]), { nowUs: FIXTURE_NOW }).logical);
      expect(got, dir).toEqual([{ s: dir === 'up' ? 'abc' : 'cba' }]);
    }
  });

  it('keeps the best n of many rows', () => {
    const key = (x: number) => (x * 7919) % 5000;
    const want = Array.from({ length: 5000 }, (_, i) => i + 1).sort((p, q) => key(q) - key(p)).slice(0, 3);
    expect(one('select array_agg(x order by mod(x * 7919, 5000) desc limit 3) as a from unnest(generate_array(1, 5000)) as x')).toEqual({ a: want });
  });
});

describe('over a stored source', () => {
  it('reads the sort-key columns though nothing else does (column pruning keeps them)', () => {
    const top = rows('select t.id from `edge.logs.prod` t order by t.timestamp desc, t.id limit 3').map((r) => r.id);
    expect(top).toHaveLength(3);
    expect(one('select array_agg(t.id order by t.timestamp desc, t.id limit 3) as a from `edge.logs.prod` t')).toEqual({ a: top });
  });

  it('an ORDER BY key computed from a parameter orders by that value', () => {
    const store = fixtureStore();
    const q = `${ABC} select string_agg(id, '' order by if(@dir = 'up', id, null), id desc) as s from t`;
    expect(querySql(store, q, { nowUs: FIXTURE_NOW, params: new Map([['dir', 'up']]) })).toEqual([{ s: 'abc' }]);
    expect(querySql(store, q, { nowUs: FIXTURE_NOW, params: new Map([['dir', 'down']]) })).toEqual([{ s: 'cba' }]);
  });
});

describe('DISTINCT with modifiers', () => {
  const DUP = "with t as (select 'b' as id union all select 'a' union all select 'b' union all select 'c' union all select 'a')";
  it('orders the distinct values when ORDER BY is the argument', () => {
    expect(one(`${DUP} select array_agg(distinct id order by id) as a, string_agg(distinct id, '' order by id desc limit 2) as s from t`)).toEqual({ a: ['a', 'b', 'c'], s: 'cb' });
  });

  it('LIMIT counts distinct values', () => {
    const a = one(`${DUP} select array_agg(distinct id limit 2) as a from t`).a as string[];
    expect(new Set(a).size).toBe(2);
  });

  it('refuses an ORDER BY key other than the argument', () => {
    expect(errorOf(`${DUP} select array_agg(distinct id order by length(id)) as a from t`)).toEqual({
      code: 'query_error', message: expect.stringMatching(/ARRAY_AGG with DISTINCT may only ORDER BY its argument/) as unknown as string,
    });
  });
});

describe('modifiers where BigQuery does not allow them', () => {
  it.each([
    ['select count(x order by x) from unnest([1, 2]) as x', 'COUNT does not support ORDER BY'],
    ['select sum(x limit 2) from unnest([1, 2]) as x', 'SUM does not support LIMIT'],
    ['select max(x ignore nulls) from unnest([1, 2]) as x', 'MAX does not support IGNORE NULLS'],
    ["select string_agg(x respect nulls) from unnest(['a']) as x", 'STRING_AGG does not support RESPECT NULLS'],
    ["select upper(x order by x) from unnest(['a']) as x", 'UPPER does not support ORDER BY'],
    ["select upper(distinct x) from unnest(['a']) as x", 'UPPER does not support DISTINCT'],
    ["select upper(distinct 'a') as u", 'UPPER does not support DISTINCT'],
    ['select array_agg(x limit x) from unnest([1, 2]) as x', 'The LIMIT of ARRAY_AGG needs a constant non-negative integer'],
    ['select array_agg(x limit -1) from unnest([1, 2]) as x', 'The LIMIT of ARRAY_AGG needs a constant non-negative integer'],
  ])('%s', (sql, msg) => {
    const e = errorOf(sql);
    expect(e.code).toBe('query_error');
    expect(e.message).toContain(msg);
  });
});

describe('plans with and without modifiers are different plans', () => {
  const store = fixtureStore();
  const plain = `${ABC} select string_agg(id, ',') as s, array_agg(id) as a from t`;
  const ordered = `${ABC} select string_agg(id, ',' order by id) as s, array_agg(id order by id) as a from t`;

  it('answer differently in one process, either order', () => {
    const o1 = querySql(store, ordered, { nowUs: FIXTURE_NOW });
    const p1 = querySql(store, plain, { nowUs: FIXTURE_NOW });
    const o2 = querySql(store, ordered, { nowUs: FIXTURE_NOW });
    expect(o1).toEqual([{ s: 'a,b,c', a: ['a', 'b', 'c'] }]);
    expect(o2).toEqual(o1);
    expect((p1[0]!.a as string[]).slice().sort()).toEqual(['a', 'b', 'c']);
  });

  it('have different canonical keys, and one SELECT keeps both aggregates apart', () => {
    const key = (sql: string) => canonicalPlanKey(planSql(store, sql, { nowUs: FIXTURE_NOW }));
    expect(key(plain)).not.toBe(key(ordered));
    expect(key(ordered)).not.toBe(key(ordered.replace('order by id)', 'order by id desc)')));
    expect(key(ordered)).not.toBe(key(ordered.replace('array_agg(id order by id)', 'array_agg(id order by id limit 2)')));
    expect(key(ordered)).toBe(key(ordered));
    expect(one(`${ABC} select array_agg(id order by id) as x, array_agg(id order by id desc) as y, array_agg(id order by id limit 1) as z from t`))
      .toEqual({ x: ['a', 'b', 'c'], y: ['c', 'b', 'a'], z: ['a'] });
  });
});
