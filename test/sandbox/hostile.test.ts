// Hostile consumer queries (SPEC §5): every way of reaching a source or running something other
// than one SELECT is refused with a 4xx naming the offender, and nothing is scanned.

import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RingqlError } from '../../src/core/errors.ts';
import { SourceStore } from '../../src/store/source-store.ts';
import type { QueryService } from '../../src/endpoints/service-types.ts';
import { fixtureService } from '../helpers/fixture-store.ts';

const SRC = '`edge.logs.prod`';
type Expect = 'table' | 'select_only' | 'singular' | 'syntax' | 'limit';

const CASES: [string, string, Expect][] = [
  ['source in FROM', `select * from ${SRC}`, 'table'],
  ['source by alias', `select t.id from ${SRC} as t`, 'table'],
  ['source in comma join', `select * from edge_logs, \`postgres.logs\``, 'table'],
  ['source in inner join', `select * from edge_logs e join \`postgres.logs\` p on e.id = p.id`, 'table'],
  ['source in left join', `select * from edge_logs e left join \`auth.logs.prod\` a on true`, 'table'],
  ['source in right join', `select * from edge_logs e right join \`auth.logs.prod\` a on e.id = a.id`, 'table'],
  ['source in full join', `select * from edge_logs e full join \`auth.logs.prod\` a on e.id = a.id`, 'table'],
  ['source in cross join', `select * from edge_logs cross join \`rest.logs.prod\``, 'table'],
  ['source in FROM subquery', `select * from (select * from ${SRC})`, 'table'],
  ['source three subqueries deep', `select * from (select * from (select * from (select id from ${SRC})))`, 'table'],
  ['source in IN subquery', `select * from edge_logs where id in (select id from ${SRC})`, 'table'],
  ['source in NOT IN subquery', `select * from edge_logs where id not in (select id from ${SRC})`, 'table'],
  ['source in scalar subquery in SELECT', `select (select count(*) from \`postgres.logs\`) as n from edge_logs`, 'table'],
  ['source in EXISTS', `select * from edge_logs where exists(select 1 from \`pooler.logs.prod\`)`, 'table'],
  ['source in HAVING subquery', `select count(*) from edge_logs group by id having count(*) > (select count(*) from ${SRC})`, 'table'],
  ['source in ORDER BY subquery', `select id from edge_logs order by (select max(id) from ${SRC})`, 'table'],
  ['source in CASE subquery', `select case when true then (select max(id) from ${SRC}) end as x from edge_logs`, 'table'],
  ['source in function argument', `select coalesce((select max(id) from ${SRC}), 'x') as y`, 'table'],
  ['source in ARRAY subquery', `select array(select id from \`rest.logs.prod\`) as ids`, 'table'],
  ['source in UNNEST of a subquery', `select * from unnest((select array_agg(id) from ${SRC}))`, 'table'],
  ['source in UNION ALL first branch', `select id from ${SRC} union all select id from edge_logs`, 'table'],
  ['source in UNION ALL second branch', `select id from edge_logs union all select id from ${SRC}`, 'table'],
  ['source in UNION DISTINCT branch', `select id from edge_logs union distinct select id from \`auth.logs.prod\``, 'table'],
  ['source in EXCEPT branch', `select id from edge_logs except distinct select id from ${SRC}`, 'table'],
  ['source in INTERSECT branch', `select id from edge_logs intersect distinct select id from ${SRC}`, 'table'],
  ['source in parenthesised branch', `(select id from edge_logs) union all (select id from ${SRC} limit 1)`, 'table'],
  ['consumer CTE reading a source', `with x as (select * from ${SRC}) select * from x`, 'table'],
  ['consumer CTE shadowing a saved CTE', `with edge_logs as (select * from ${SRC}) select * from edge_logs`, 'table'],
  ['shadowing CTE with different case', `with EDGE_LOGS as (select * from ${SRC}) select * from edge_logs`, 'table'],
  ['second consumer CTE reads a source', `with a as (select 1 as x), b as (select * from \`postgres.logs\`) select * from a`, 'table'],
  ['unused consumer CTE reading a source', `with unused as (select * from ${SRC}) select 1`, 'table'],
  ['nested WITH in a CTE', `with a as (with b as (select * from \`auth.logs.prod\`) select * from b) select * from a`, 'table'],
  ['nested WITH in a subquery', `select * from (with b as (select * from ${SRC}) select * from b)`, 'table'],
  ['upper-case source name', 'select * from `EDGE.LOGS.PROD`', 'table'],
  ['unquoted dotted source name', 'select * from edge.logs.prod', 'table'],
  ['project.dataset.table', 'select * from myproject.dataset.logs', 'table'],
  ['INFORMATION_SCHEMA', 'select * from INFORMATION_SCHEMA.TABLES', 'table'],
  ['dashed source unquoted', 'select * from `function-relay-logs`', 'table'],
  ['source after a comment', `select * from /* edge_logs */ ${SRC}`, 'table'],
  ['source after a line comment', `select * from -- edge_logs\n${SRC}`, 'table'],
  ['unknown table', 'select * from nonexistent_cte', 'table'],
  ['INSERT', `insert into edge_logs (id) values ('x')`, 'select_only'],
  ['UPDATE', `update edge_logs set id = 'x' where true`, 'select_only'],
  ['DELETE', 'delete from edge_logs where true', 'select_only'],
  ['MERGE', 'merge edge_logs t using edge_logs s on t.id = s.id when matched then delete', 'select_only'],
  ['TRUNCATE', 'truncate table edge_logs', 'select_only'],
  ['CREATE TABLE', 'create table x as select * from edge_logs', 'select_only'],
  ['CREATE OR REPLACE VIEW', 'create or replace view v as select 1', 'select_only'],
  ['DROP', 'drop table edge_logs', 'select_only'],
  ['ALTER', 'alter table edge_logs add column x string', 'select_only'],
  ['GRANT', 'grant select on edge_logs to bob', 'select_only'],
  ['CALL', 'call proc()', 'select_only'],
  ['DECLARE', 'declare x int64', 'select_only'],
  ['EXECUTE IMMEDIATE', "execute immediate 'select 1'", 'select_only'],
  ['BEGIN', 'begin transaction', 'select_only'],
  ['SELECT then DROP', 'select 1; drop table edge_logs', 'select_only'],
  ['lower-case insert after comment', '/* hi */ insert into x values (1)', 'select_only'],
  ['two SELECTs', 'select 1; select 2', 'singular'],
  ['SELECT then source SELECT', `select 1; select * from ${SRC}`, 'singular'],
  ['three statements', 'select 1; select 2; select 3;', 'singular'],
  ['double-quoted table name', 'select * from "edge.logs.prod"', 'syntax'],
  ['unterminated string', "select 'abc from edge_logs", 'syntax'],
  ['unterminated backtick', 'select * from `edge.logs.prod', 'syntax'],
  ['garbage', ')))(((', 'syntax'],
  ['FOR SYSTEM_TIME', 'select * from edge_logs for system_time as of current_timestamp()', 'syntax'],
  ['huge query', 'select ' + Array.from({ length: 30000 }, (_, i) => `${i} as c${i}`).join(', '), 'limit'],
  ['deep parentheses', 'select ' + '('.repeat(5000) + '1' + ')'.repeat(5000), 'limit'],
  ['deep subqueries', 'select * from ' + '(select * from '.repeat(200) + 'edge_logs' + ')'.repeat(200), 'limit'],
  ['very deep parentheses', 'select ' + '('.repeat(100000), 'limit'],
];

let service: QueryService;
let scans = 0;

beforeAll(async () => {
  ({ service } = await fixtureService());
});
afterEach(() => vi.restoreAllMocks());

async function attempt(sql: string): Promise<RingqlError> {
  scans = 0;
  const orig = SourceStore.prototype.scan;
  vi.spyOn(SourceStore.prototype, 'scan').mockImplementation(function (this: SourceStore, spec) {
    scans++;
    return orig.call(this, spec);
  });
  try {
    await service.run({ endpoint: 'logs.all', params: new Map([['project', 'alpha'], ['sql', sql]]), redactHeader: false });
  } catch (err) {
    if (err instanceof RingqlError) return err;
    throw err;
  }
  throw new Error(`accepted: ${sql.slice(0, 200)}`);
}

describe('hostile sandbox queries', () => {
  it('has at least 60 cases', () => expect(CASES.length).toBeGreaterThanOrEqual(60));

  for (const [name, sql, kind] of CASES) {
    it(`rejects: ${name}`, async () => {
      const e = await attempt(sql);
      expect(e.status).toBeGreaterThanOrEqual(400);
      expect(e.status).toBeLessThan(500);
      expect(scans).toBe(0);
      if (kind === 'table') {
        expect(e.code).toBe('sandbox_violation');
        expect(e.message).toMatch(/^Table not found in CTE: \(/);
      }
      if (kind === 'select_only') expect(e.message).toMatch(/^Only SELECT queries allowed/);
      if (kind === 'singular') expect(e.message).toMatch(/^Only singular query allowed/);
      if (kind === 'syntax') expect(e.code).toBe('syntax_error');
      if (kind === 'limit') expect(e.code).toBe('value_too_large');
    });
  }

  it('names the offending table', async () => {
    const e = await attempt('select * from edge_logs join `postgres.logs` p on true');
    expect(e.message).toContain('Table not found in CTE: (postgres.logs)');
  });
});

describe('legitimate dashboard queries', () => {
  const run = async (sql: string, project = 'alpha') => JSON.parse((await service.run({ endpoint: 'logs.all', params: new Map([['project', project], ['sql', sql]]), redactHeader: false })).body.toString()).result as Record<string, unknown>[];

  it('list with an unnest chain and implicit column names', async () => {
    const rows = await run(`select id, timestamp, event_message, request.method, request.path, response.status_code
      from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as request cross join unnest(m.response) as response
      order by timestamp desc limit 100`);
    expect(rows.length).toBeGreaterThan(0);
    expect(Object.keys(rows[0]!)).toEqual(['id', 'timestamp', 'event_message', 'method', 'path', 'status_code']);
  });

  it('count(*)', async () => {
    const rows = await run('select count(*) as count from postgres_logs');
    expect(rows).toEqual([{ count: 6 }]);
  });

  it('a time-bucket chart with count(CASE ...)', async () => {
    const rows = await run(`select timestamp_trunc(t.timestamp, hour) as timestamp,
      count(case when response.status_code >= 500 then 1 else null end) as errors, count(*) as total
      from edge_logs t cross join unnest(t.metadata) as m cross join unnest(m.response) as response
      group by timestamp order by timestamp asc`);
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.reduce((s, r) => s + (r.total as number), 0)).toBeGreaterThan(rows.reduce((s, r) => s + (r.errors as number), 0));
  });

  it('a single-row lookup by id', async () => {
    const rows = await run("select id, event_message from postgres_logs where id = 'p002' limit 1");
    expect(rows).toEqual([{ id: 'p002', event_message: 'statement 2' }]);
  });

  it('IFNULL(SAFE_CAST(...)) filters', async () => {
    // beta's auth events carry status as the string "401"; SAFE_CAST reads it as a number
    const rows = await run('select a.id from auth_logs a cross join unnest(a.metadata) m where ifnull(safe_cast(m.status as int64), 0) >= 400 order by a.id', 'beta');
    expect(rows.map((r) => r.id)).toEqual(['a001', 'a003', 'a005']);
  });

  it('a consumer CTE over saved CTEs, a subquery and a union of CTEs', async () => {
    const rows = await run(`with errs as (select id from edge_logs e cross join unnest(e.metadata) m cross join unnest(m.response) r where r.status_code >= 500)
      select count(*) as n from (select id from errs union all select id from postgres_logs)`);
    expect((rows[0]!.n as number)).toBeGreaterThan(6);
  });
});
