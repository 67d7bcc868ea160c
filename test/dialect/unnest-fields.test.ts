// Unqualified names that read a field of the records an UNNEST yields (a value table of STRUCT),
// with BigQuery's precedence: range variable > (column | field, ambiguous when two match) > outer query.

import { describe, expect, it } from 'vitest';
import { errorOf, rows } from './run-sql.ts';
import { ERROR_STATUS } from '../../src/core/errors.ts';

const EDGE = 'from `edge.logs.prod` t cross join unnest(t.metadata) as m';

describe('fields of UNNESTed records, unqualified', () => {
  it('reads the field of an unaliased UNNEST of STRUCTs', () => {
    expect(rows('select x from unnest([struct(1 as x)])')).toEqual([{ x: 1 }]);
    expect(rows("select y, x from unnest([struct(1 as x, 'a' as y), struct(2 as x, 'b' as y)]) where x > 1")).toEqual([{ y: 'b', x: 2 }]);
  });

  it('reads fields of schema records through chained aliases (request.path as path)', () => {
    // test/fixtures/edge.logs.prod.ndjson: 39 of 40 events have metadata.request; 10 paths start /rest/v1.
    const sql = `select count(*) as n ${EDGE} cross join unnest(m.request) as request where path like '/rest/v1%'`;
    expect(rows(sql)).toEqual([{ n: 10 }]);
    const byMethod = `select method, count(*) as n ${EDGE} cross join unnest(m.request) as request group by method order by method`;
    expect(rows(byMethod)).toEqual([{ method: 'GET', n: 20 }, { method: 'POST', n: 19 }]);
  });

  it('a dashboard query in the reference style: metadata alias hides the column, fields read bare', () => {
    const sql = 'select status_code, count(*) as n from `edge.logs.prod` cross join unnest(metadata) as metadata ' +
      'cross join unnest(metadata.response) as response group by status_code order by status_code';
    expect(rows(sql)).toEqual([{ status_code: 200, n: 29 }, { status_code: 500, n: 10 }]);
  });

  it('a range variable wins over a column and a field of the same name', () => {
    const sql = "select metadata from (select 'column' as metadata) as s cross join unnest([struct('f' as q)]) as metadata";
    expect(rows(sql)).toEqual([{ metadata: { q: 'f' } }]);
    expect(rows('select x from unnest([struct(1 as x)]) as x')).toEqual([{ x: { x: 1 } }]);
  });

  it('a column and a field of the same name, or two fields, are ambiguous_name (400)', () => {
    const both = errorOf('select x from (select 1 as x) as s cross join unnest([struct(2 as x)]) as u');
    expect(both.code).toBe('ambiguous_name');
    expect(both.message).toContain('Column name x is ambiguous');
    expect(ERROR_STATUS.ambiguous_name).toBe(400);
    expect(errorOf('select x from unnest([struct(1 as x)]) as a cross join unnest([struct(2 as x)]) as b').code).toBe('ambiguous_name');
    // Qualified, each is fine.
    expect(rows('select a.x as ax, b.x as bx from unnest([struct(1 as x)]) as a cross join unnest([struct(2 as x)]) as b')).toEqual([{ ax: 1, bx: 2 }]);
  });

  it('with the source schema: a record field named like a column is ambiguous; a bare field groups', () => {
    // SAMPLE-EVENTS: auth metadata has its own `timestamp` (a STRING), as BigQuery's auth_logs do.
    expect(errorOf('select timestamp from `auth.logs.prod` t cross join unnest(t.metadata) as m').code).toBe('ambiguous_name');
    expect(rows('select t.timestamp is not null as ok from `auth.logs.prod` t cross join unnest(t.metadata) as m limit 1')).toEqual([{ ok: true }]);
    // test/fixtures/postgres.logs.ndjson: 4 each of ERROR, LOG, WARNING in metadata.parsed.error_severity.
    const sql = 'select error_severity, count(*) as n from `postgres.logs` t cross join unnest(t.metadata) as m ' +
      'cross join unnest(m.parsed) as p group by error_severity order by error_severity';
    expect(rows(sql)).toEqual([{ error_severity: 'ERROR', n: 4 }, { error_severity: 'LOG', n: 4 }, { error_severity: 'WARNING', n: 4 }]);
  });

  it('the inner query sees its own field before the outer query', () => {
    const sql = 'select x, (select x from unnest([struct(9 as x)])) as inner_x from (select 1 as x)';
    expect(rows(sql)).toEqual([{ x: 1, inner_x: 9 }]);
  });

  it('a name that is no field of the schema is still unknown_name', () => {
    expect(errorOf(`select no_such_field ${EDGE} cross join unnest(m.request) as request`).code).toBe('unknown_name');
  });

  it('SELECT * expands the fields of a value table of STRUCT', () => {
    expect(rows("select * from unnest([struct(1 as x, 'a' as y)]) as s")).toEqual([{ x: 1, y: 'a' }]);
    expect(rows("select s.* except (y) from unnest([struct(1 as x, 'a' as y)]) as s")).toEqual([{ x: 1 }]);
    expect(rows('select * from unnest([1, 2]) as v order by v')).toEqual([{ v: 1 }, { v: 2 }]);
  });
});
