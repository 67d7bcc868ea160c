// `?sql=EXPLAIN <select>` on a sandboxable endpoint answers the logical and physical plans of the
// consumer query as it would run (saved WITH list, parameters folded) and the rules that fired, as
// `ringql query --explain` prints them; redaction applies to the plan text as to any result.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { bearer, rawRequest, startTestServer, TOKENS, type TestServer } from './helpers.ts';

const auth = bearer(TOKENS.priv);
const ADDRESS = '10.1.2.3';
let server: TestServer;
let service: Awaited<ReturnType<typeof createQueryService>>;

beforeAll(async () => {
  service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null });
  const ts = new Date(Date.now() - 5000).toISOString();
  service.ingest('edge.logs.prod', [{ id: 'a', timestamp: ts, project: 'p', event_message: 'hello', metadata: {} }]);
  server = await startTestServer(service);
});
afterAll(async () => {
  await server.close();
  service.close();
});

const get = (path: string, headers: Record<string, string> = {}) => rawRequest(server.port, { path, headers: { ...auth, ...headers } });
const sandbox = (sql: string, headers: Record<string, string> = {}) => get(`/api/endpoints/query/logs.all?project=p&sql=${encodeURIComponent(sql)}`, headers);

interface Explained { logical_plan: string; physical_plan: string; rules: string[] }
const explained = (body: string): Explained => {
  const rows = (JSON.parse(body) as { result: Explained[] }).result;
  expect(rows).toHaveLength(1);
  return rows[0]!;
};

describe('EXPLAIN in a sandbox sql parameter', () => {
  it('answers both plans and the rules that fired instead of rows', async () => {
    const r = await sandbox('EXPLAIN select id, timestamp from edge_logs order by timestamp desc limit 5');
    expect(r.status).toBe(200);
    const e = explained(r.body);
    // The consumer reads logs.all's edge_logs CTE, whose WHERE project = @project became a scan bound.
    expect(e.logical_plan).toMatch(/Scan edge\.logs\.prod AS t project="p"/);
    expect(e.physical_plan.split('\n')[0]).toBe('Limit 5');
    expect(e.physical_plan).toMatch(/Scan edge\.logs\.prod .*\[.*ProjectScanByTimeRange.*\]/);
    expect(e.rules).toContain('ProjectScanByTimeRange');
    // No row of the store comes back: the event's message is nowhere in the answer.
    expect(r.body).not.toContain('hello');
  });

  it('explain is case-insensitive and may follow whitespace; the plan is never cached', async () => {
    const a = await sandbox('  explain\nselect count(*) as n from edge_logs');
    expect(a.status).toBe(200);
    expect(explained(a.body).logical_plan).toMatch(/COUNT\(\*\)/);
    const b = await get(`/api/endpoints/query/usage.api-counts?interval=hourly&project=p&sql=${encodeURIComponent('EXPLAIN select timestamp from chart_counts')}`);
    expect(b.status).toBe(200);
    expect(b.headers['x-cache']).toBe('MISS');
    expect(explained(b.body).rules).toContain('BucketAggregateFromCache');
  });

  it('what follows EXPLAIN obeys the sandbox rules and binds as a query would', async () => {
    const del = await sandbox('EXPLAIN delete from edge_logs where true');
    expect(del.status).toBe(400);
    expect(JSON.parse(del.body).error.code).toBe('sandbox_violation');
    const twice = await sandbox('EXPLAIN EXPLAIN select 1');
    expect(JSON.parse(twice.body).error.code).toBe('sandbox_violation');
    const unknown = await sandbox('EXPLAIN select nope from edge_logs');
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body).error.code).toBe('unknown_name');
  });

  it('a plain sandbox query still answers rows', async () => {
    const r = await sandbox('select id from edge_logs');
    expect(JSON.parse(r.body)).toEqual({ result: [{ id: 'a' }] });
  });

  it('redaction applies to the plan text: an address written in the query shows as REDACTED with the header', async () => {
    const sql = `EXPLAIN select id from edge_logs where event_message = '${ADDRESS}'`;
    const plain = await sandbox(sql);
    expect(explained(plain.body).logical_plan).toContain(ADDRESS);
    const red = await sandbox(sql, { 'LF-ENDPOINT-REDACT-PII': 'true' });
    expect(red.status).toBe(200);
    expect(red.body).not.toContain(ADDRESS);
    expect(explained(red.body).logical_plan).toContain('REDACTED');
  });
});
