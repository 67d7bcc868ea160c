// BigQuery's orderable types exclude ARRAY and STRUCT: an ORDER BY key of either type, in the query or in
// an aggregate, is a query_error naming the clause and the type; orderable keys still sort. EXPLAIN shows
// STRING_AGG's modifiers as written (its implied IGNORE NULLS is not one).

import { describe, expect, it } from 'vitest';
import { errorOf, rows } from './run-sql.ts';
import { planSql } from '../../src/endpoints/query-sql.ts';
import { explainPlan } from '../../src/plan/explain.ts';
import { fixtureStore, FIXTURE_NOW } from '../helpers/fixture-store.ts';

describe('ORDER BY keys of unorderable types', () => {
  it('refuses an ARRAY or STRUCT key in the query ORDER BY, by expression, alias or position', () => {
    for (const sql of ['select [1, 2] as a order by a', 'select 1 as n order by [1]', 'select [3] as a order by 1']) {
      const e = errorOf(sql);
      expect(e.code).toBe('query_error');
      expect(e.message).toContain('ORDER BY does not support expressions of type ARRAY');
    }
    expect(errorOf('select struct(1 as a) as s order by s').message).toContain('ORDER BY does not support expressions of type STRUCT');
  });

  it('refuses them after a set operation too', () => {
    expect(errorOf('select struct(1 as a) as s union all select struct(2 as a) order by 1').message).toContain('type STRUCT');
  });

  it('refuses them in the ORDER BY of ARRAY_AGG and STRING_AGG', () => {
    expect(errorOf('select array_agg(x order by [x]) from unnest([1, 2]) as x').message).toContain('The ORDER BY of ARRAY_AGG does not support expressions of type ARRAY');
    expect(errorOf("select string_agg(x order by struct(x as k)) from unnest(['a']) as x").message).toContain('The ORDER BY of STRING_AGG does not support expressions of type STRUCT');
  });

  it('still sorts by orderable keys, including an array element', () => {
    expect(rows('select x from unnest([2, 3, 1]) as x order by x desc')).toEqual([{ x: 3 }, { x: 2 }, { x: 1 }]);
    expect(rows('select a from (select [2] as a union all select [1]) order by a[offset(0)]')).toEqual([{ a: [1] }, { a: [2] }]);
  });
});

describe('EXPLAIN of aggregate modifiers', () => {
  const explain = (sql: string) => explainPlan(planSql(fixtureStore(), sql, { nowUs: FIXTURE_NOW }));
  it('shows IGNORE NULLS where the query wrote it, not the one STRING_AGG implies', () => {
    const s = explain("select string_agg(x, ',' order by x) as s from unnest(['b', 'a']) as x");
    expect(s).toContain('STRING_AGG(x, "," ORDER BY x ASC NULLS FIRST)');
    expect(s).not.toContain('IGNORE NULLS');
    expect(explain('select array_agg(x ignore nulls order by x) as a from unnest([2, 1]) as x')).toContain('ARRAY_AGG(x IGNORE NULLS ORDER BY x ASC NULLS FIRST)');
  });
});
