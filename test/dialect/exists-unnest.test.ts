// EXISTS over the UNNEST of the current row's array — the one correlated subquery shape the engine
// runs (the reference's LQL `m.arr:@>~re` compiles to it) — with BigQuery's semantics; other
// correlated subqueries stay a 400 query_error.

import { describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { querySql } from '../../src/endpoints/query-sql.ts';
import { RingqlError } from '../../src/core/errors.ts';
import type { Value } from '../../src/core/values.ts';

const NOW = Date.UTC(2025, 0, 15, 12) * 1000;
const at = (min: number): number => NOW - min * 60_000_000;
const EVENTS = [
  { id: 'a', timestamp: at(1), event_message: 'abc', metadata: { tags: ['abc', 'zzz'], nums: [1, 5] } },
  { id: 'b', timestamp: at(2), event_message: 'x', metadata: { tags: ['bcd'], nums: [7] } },
  { id: 'c', timestamp: at(3), event_message: 'x', metadata: { tags: [], nums: [] } },
  { id: 'd', timestamp: at(4), event_message: 'x', metadata: {} },
  { id: 'e', timestamp: at(5), event_message: 'x', metadata: { tags: ['bob', null] } },
];

function rows(sql: string): Record<string, Value>[] {
  const store = new Store(defaultStoreConfig({}));
  store.source('edge.logs.prod')!.ingest(EVENTS, NOW);
  return querySql(store, sql, { nowUs: NOW });
}
const ids = (where: string): Value[] =>
  rows(`select t.id from \`edge.logs.prod\` as t cross join unnest(t.metadata) as m where ${where} order by t.id`).map((r) => r['id']!);
function errorOf(sql: string): RingqlError {
  try {
    rows(sql);
  } catch (e) {
    if (e instanceof RingqlError) return e;
    throw e;
  }
  throw new Error(`expected an error from: ${sql}`);
}

describe('EXISTS over UNNEST of an outer array', () => {
  it('is TRUE when some element satisfies the WHERE, FALSE for an empty or missing array', () => {
    expect(ids(`exists (select * from unnest(m.tags) as x where regexp_contains(x, '^b'))`)).toEqual(['b', 'e']);
    expect(ids(`exists (select 1 from unnest(m.nums) as n where n > 4)`)).toEqual(['a', 'b']);
  });

  it('NOT EXISTS keeps empty and missing arrays (never NULL: a NULL element does not make it unknown)', () => {
    expect(ids(`not exists (select * from unnest(m.tags) as x where regexp_contains(x, '^b'))`)).toEqual(['a', 'c', 'd']);
  });

  it('without WHERE it asks whether the array has an element', () => {
    expect(ids('exists (select x from unnest(m.tags) as x)')).toEqual(['a', 'b', 'e']);
  });

  it('the path form FROM m.tags AS x means UNNEST(m.tags)', () => {
    expect(ids(`exists (select 1 from m.tags as x where x = 'zzz')`)).toEqual(['a']);
  });

  it('the predicate may read the enclosing row', () => {
    expect(ids('exists (select 1 from unnest(m.tags) as x where x = t.event_message)')).toEqual(['a']);
  });

  it('nests: an inner EXISTS may read the outer element', () => {
    // a: 'abc' (length 3) < 5; b: 'bcd' < 7; e has tags but no nums; c and d have neither.
    expect(ids('exists (select 1 from unnest(m.tags) as x where exists (select 1 from unnest(m.nums) as n where length(x) < n))')).toEqual(['a', 'b']);
  });

  it('runs inside a grouped query', () => {
    const sql = 'select count(*) as n from `edge.logs.prod` as t cross join unnest(t.metadata) as m ' +
      'where exists (select 1 from unnest(m.nums) as n where n >= 5)';
    expect(rows(sql)).toEqual([{ n: 2 }]);
  });

  it('an unknown name inside is still unknown_name; a non-BOOL WHERE is a query_error', () => {
    expect(errorOf('select t.id from `edge.logs.prod` as t cross join unnest(t.metadata) as m where exists (select 1 from unnest(m.tags) as x where nope = 1)').code).toBe('unknown_name');
    expect(errorOf("select t.id from `edge.logs.prod` as t cross join unnest(t.metadata) as m where exists (select 1 from unnest(m.nums) as x where 'yes')").code).toBe('query_error');
  });

  it('other correlated subqueries stay a 400 query_error naming the shape that runs', () => {
    const scalar = errorOf('select (select max(x) from unnest(m.nums) as x) as top from `edge.logs.prod` as t cross join unnest(t.metadata) as m');
    expect(scalar.code).toBe('query_error');
    expect(scalar.message).toMatch(/Correlated subqueries are not supported: m\.nums .*only EXISTS over the UNNEST/);
    const limited = errorOf('select t.id from `edge.logs.prod` as t cross join unnest(t.metadata) as m where exists (select 1 from unnest(m.nums) as x where x > 1 limit 1)');
    expect(limited.code).toBe('query_error');
  });
});
