// Every configurable limit over real HTTP on a loopback port: the right 4xx (or 503 with Retry-After when
// shedding load), a JSON error body naming the limit, nothing half-stored, and the server still serving.

import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { DEFAULT_LIMITS, limitsFromEnv } from '../../src/core/limits.ts';
import { bearer, rawRequest, startTestServer, TOKENS, type TestServer } from '../http/helpers.ts';

const auth = bearer(TOKENS.priv);
let server: TestServer;
let service: Awaited<ReturnType<typeof createQueryService>>;

const LIMITS = { ...DEFAULT_LIMITS, maxQueryLength: 2000, maxQueryDepth: 20, maxEventsPerBatch: 50, maxEventDepth: 6, maxFieldBytes: 1024, maxConcurrentRequests: 4 };

beforeAll(async () => {
  const env = { RINGQL_MAX_EVENT_DEPTH: String(LIMITS.maxEventDepth), RINGQL_MAX_FIELD_BYTES: String(LIMITS.maxFieldBytes) };
  service = await createQueryService({ store: new Store(defaultStoreConfig(env)), stateDir: null, limits: LIMITS, budget: { timeoutMs: 200, maxRows: Number.MAX_SAFE_INTEGER } });
  server = await startTestServer(service, { maxConcurrentRequests: LIMITS.maxConcurrentRequests });
});
afterAll(async () => {
  await server.close();
  service.close();
});

const post = (events: unknown) => rawRequest(server.port, { method: 'POST', path: '/api/logs?source_name=edge.logs.prod', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify(events) });
const query = (sql: string) => rawRequest(server.port, { method: 'POST', path: '/api/endpoints/query/logs.all', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ project: 'p', sql }) });
const rows = async (): Promise<number> => {
  const r = await query('select count(*) as n from edge_logs');
  return (JSON.parse(r.body) as { result: { n: number }[] }).result[0]!.n;
};
const event = (i: number, extra: Record<string, unknown> = {}) => ({ id: `e${i}`, timestamp: new Date(Date.now() - 1000 * (i + 1)).toISOString(), project: 'p', event_message: 'm', metadata: { request: { path: '/rest/v1/x' } }, ...extra });

describe('limits', () => {
  it('query text over RINGQL_MAX_QUERY_LENGTH → 400 value_too_large, before parsing', async () => {
    const r = await query(`select 1 as x from edge_logs where ${'1 = 1 and '.repeat(300)} true`);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error).toMatchObject({ code: 'value_too_large', limit: 2000, param: 'sql' });
  });

  it('query nested past RINGQL_MAX_QUERY_DEPTH → 400 value_too_large, never a stack overflow', async () => {
    const r = await query(`select ${'('.repeat(40)}1${')'.repeat(40)} as x`);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error.code).toBe('value_too_large');
  });

  it('more events than RINGQL_MAX_EVENTS_PER_BATCH → 413 and nothing stored', async () => {
    const before = await rows();
    const r = await post(Array.from({ length: 51 }, (_, i) => event(i)));
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).error).toMatchObject({ code: 'payload_too_large', limit: 50 });
    expect(await rows()).toBe(before);
    expect((await post(Array.from({ length: 50 }, (_, i) => event(i)))).status).toBe(200);
    expect(await rows()).toBe(before + 50);
  });

  it('an event nested deeper than RINGQL_MAX_EVENT_DEPTH → 400 invalid_events naming it; the batch is not stored', async () => {
    const before = await rows();
    const deep: Record<string, unknown> = {};
    let cur = deep;
    for (let i = 0; i < 10; i++) { const next: Record<string, unknown> = {}; cur.x = next; cur = next; }
    const r = await post([event(100), event(101, { metadata: deep })]);
    expect(r.status).toBe(400);
    const err = JSON.parse(r.body).error;
    expect(err.code).toBe('invalid_events');
    expect(JSON.stringify(err)).toMatch(/nested deeper than 6/);
    expect(await rows()).toBe(before);
  });

  it('a string over RINGQL_MAX_FIELD_BYTES → 400 invalid_events; the batch is not stored', async () => {
    const before = await rows();
    const r = await post([event(200, { event_message: 'x'.repeat(2000) })]);
    expect(r.status).toBe(400);
    expect(JSON.stringify(JSON.parse(r.body).error)).toMatch(/longer than 1024 bytes/);
    expect(await rows()).toBe(before);
  });

  it('a query touching more rows than RINGQL_QUERY_MAX_ROWS → 503 query_timeout (its work budget)', async () => {
    const small = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, limits: LIMITS, budget: { timeoutMs: 10_000, maxRows: 1000 } });
    small.ingest('edge.logs.prod', Array.from({ length: 50 }, (_, i) => event(i)));
    await expect(small.run({ endpoint: 'logs.all', params: new Map([['project', 'p'], ['sql', 'select count(*) as n from edge_logs a, edge_logs b']]), redactHeader: false })).rejects.toMatchObject({ code: 'query_timeout' });
    small.close();
  });

  it('a query over its time budget → 503 query_timeout with Retry-After', async () => {
    await post(Array.from({ length: 50 }, (_, i) => event(300 + i)));
    const r = await query('select count(*) as n from edge_logs a, edge_logs b, edge_logs c, edge_logs d, edge_logs e');
    expect(r.status).toBe(503);
    expect(r.headers['retry-after']).toBeDefined();
    expect(JSON.parse(r.body).error.code).toBe('query_timeout');
  });

  it('more ingest requests in flight than RINGQL_MAX_CONCURRENT_REQUESTS → 503 overloaded with Retry-After, /health untouched, then normal service', async () => {
    // Hold four requests open mid-body (the body never completes), then ask once more.
    const sockets = await Promise.all(Array.from({ length: LIMITS.maxConcurrentRequests }, () => new Promise<ReturnType<typeof connect>>((resolve) => {
      const s = connect(server.port, '127.0.0.1', () => {
        s.write(`POST /api/logs?source_name=edge.logs.prod HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKENS.priv}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[`);
        resolve(s);
      });
    })));
    await new Promise((r) => setTimeout(r, 100));
    const r = await post([event(900)]);
    expect(r.status).toBe(503);
    expect(r.headers['retry-after']).toBe('1');
    expect(JSON.parse(r.body).error.code).toBe('overloaded');
    expect((await rawRequest(server.port, { path: '/health' })).status).toBe(200);
    for (const s of sockets) s.destroy();
    await new Promise((r2) => setTimeout(r2, 100));
    expect((await post([event(901)])).status).toBe(200);
  });
});

describe('limitsFromEnv', () => {
  it('reads each variable and rejects bad values with the variable named', () => {
    expect(limitsFromEnv({ RINGQL_MAX_EVENTS_PER_BATCH: '7', RINGQL_MAX_QUERY_LENGTH: '5000' })).toMatchObject({ maxEventsPerBatch: 7, maxQueryLength: 5000 });
    expect(() => limitsFromEnv({ RINGQL_MAX_EVENTS_PER_BATCH: '0' })).toThrow(/RINGQL_MAX_EVENTS_PER_BATCH="0"/);
    expect(() => limitsFromEnv({ RINGQL_MAX_CONCURRENT_REQUESTS: 'lots' })).toThrow(/RINGQL_MAX_CONCURRENT_REQUESTS/);
    expect(() => limitsFromEnv({ RINGQL_MAX_QUERY_DEPTH: '2.5' })).toThrow(/RINGQL_MAX_QUERY_DEPTH/);
  });
});
