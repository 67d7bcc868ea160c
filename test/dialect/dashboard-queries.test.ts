// Queries written as a dashboard author writes them against Logflare-style tables (metadata is a
// repeated record; its fields read bare after UNNEST), with rows counted by hand from
// test/fixtures/edge.logs.prod.ndjson (40 events, 39 with a request and a response).

import { describe, expect, it } from 'vitest';
import { rows } from './run-sql.ts';

const EDGE = '`edge.logs.prod`';

describe('dashboard-style queries over UNNESTed metadata', () => {
  it('requests by method and status, the metadata alias hiding the column', () => {
    const sql = `select request.method as method, response.status_code as status, count(*) as count from ${EDGE}
      cross join unnest(metadata) as metadata cross join unnest(metadata.request) as request
      cross join unnest(metadata.response) as response group by method, status order by count desc, status desc`;
    expect(rows(sql)).toEqual([
      { method: 'POST', status: 200, count: 19 },
      { method: 'GET', status: 500, count: 10 },
      { method: 'GET', status: 200, count: 10 },
    ]);
  });

  it('top GET paths with bare field names', () => {
    const sql = `select path, count(*) as c from ${EDGE} t cross join unnest(t.metadata) m cross join unnest(m.request) r
      where method = 'GET' group by path order by c desc, path limit 3`;
    expect(rows(sql)).toEqual([
      { path: '/auth/v1/token', c: 3 },
      { path: '/functions/v1/hello', c: 3 },
      { path: '/graphql/v1', c: 3 },
    ]);
  });

  it('distinct paths and the median origin time', () => {
    expect(rows(`select count(distinct path) as n from ${EDGE} t cross join unnest(t.metadata) m cross join unnest(m.request) r`)).toEqual([{ n: 7 }]);
    // origin_time takes the 39 values 10..49 except 17: the 20th smallest is 30.
    const p50 = `select approx_quantiles(origin_time, 100)[offset(50)] as p50 from ${EDGE} t cross join unnest(t.metadata) m cross join unnest(m.response) r`;
    expect(rows(p50)).toEqual([{ p50: 30 }]);
  });

  it('a CTE of SELECT * over the join carries the record fields as columns', () => {
    const sql = `with s as (select * from ${EDGE} t cross join unnest(t.metadata) as m) select count(*) as n, countif(request is not null) as with_request from s`;
    expect(rows(sql)).toEqual([{ n: 39, with_request: 39 }]);
  });
});
