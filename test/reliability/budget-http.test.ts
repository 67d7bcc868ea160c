// SPEC §11 over real HTTP: a heavy query ends within its budget + 1 s with 503 query_timeout while /health
// and ingest stay responsive; computed queries beyond RINGQL_MAX_CONCURRENT_QUERIES get 503 overloaded;
// one value over RINGQL_MAX_VALUE_BYTES is 400 value_too_large, in every function that can grow a value.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { DEFAULT_LIMITS } from '../../src/core/limits.ts';
import { bearer, rawRequest, startTestServer, TOKENS, type TestServer } from '../http/helpers.ts';

const auth = bearer(TOKENS.priv);
const BUDGET_MS = 1500;
const VALUE_CAP = 64 * 1024;

async function serverWith(maxConcurrentQueries: number): Promise<{ server: TestServer; service: Awaited<ReturnType<typeof createQueryService>> }> {
  const service = await createQueryService({
    store: new Store(defaultStoreConfig({})),
    stateDir: null,
    limits: { ...DEFAULT_LIMITS, maxConcurrentQueries },
    budget: { timeoutMs: BUDGET_MS, maxRows: Number.MAX_SAFE_INTEGER, maxValueBytes: VALUE_CAP },
    cache: { sweepMs: 0 },
  });
  const events = Array.from({ length: 400 }, (_, i) => ({
    id: `e${i}`, timestamp: new Date(Date.now() - 1000 * (i + 1)).toISOString(), project: 'p', event_message: `GET /rest/v1/x from 10.0.0.${i % 250}`,
  }));
  service.ingest('edge.logs.prod', events);
  return { server: await startTestServer(service), service };
}

const query = (port: number, sql: string) =>
  rawRequest(port, { method: 'POST', path: '/api/endpoints/query/logs.all', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ project: 'p', sql }) });
/** 400³ = 64M pairs: far more than 1.5 s of work. */
const HEAVY = 'select count(*) as n from edge_logs a, edge_logs b, edge_logs c where a.id != c.event_message';

describe('a heavy query under the time budget', () => {
  let s: Awaited<ReturnType<typeof serverWith>>;
  beforeAll(async () => { s = await serverWith(3); });
  afterAll(async () => { await s.server.close(); s.service.close(); });

  it('three heavy queries end with 503 query_timeout within budget + 1 s; /health ≤ 1 s and ingest ≤ 2 s meanwhile', async () => {
    const started = performance.now();
    const heavy = [0, 1, 2].map(() => query(s.server.port, HEAVY).then((r) => ({ r, ms: performance.now() - started })));
    await new Promise((r) => setTimeout(r, 200));
    const healthTimes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const t0 = performance.now();
      const h = await rawRequest(s.server.port, { method: 'GET', path: '/health' });
      healthTimes.push(performance.now() - t0);
      expect(h.status).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
    }
    const t0 = performance.now();
    const ingest = await rawRequest(s.server.port, {
      method: 'POST', path: '/api/logs?source_name=edge.logs.prod', headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify([{ project: 'p', event_message: 'small batch' }]),
    });
    const ingestMs = performance.now() - t0;
    expect(ingest.status).toBe(200);
    const done = await Promise.all(heavy);
    expect(Math.max(...healthTimes)).toBeLessThan(1000);
    expect(ingestMs).toBeLessThan(2000);
    for (const { r, ms } of done) {
      expect(r.status).toBe(503);
      expect(JSON.parse(r.body).error.code).toBe('query_timeout');
      expect(r.headers['retry-after']).toBe('1');
      expect(ms).toBeLessThan(BUDGET_MS + 1000);
    }
    // The server is whole afterwards.
    const after = await query(s.server.port, 'select count(*) as n from edge_logs');
    expect(JSON.parse(after.body).result[0].n).toBe(401);
  });

  const tooLarge: [string, string][] = [
    ['REPEAT', `select length(repeat('ab', ${VALUE_CAP})) as n`],
    ['REPLACE', `select length(replace(repeat('a', 40000), 'a', 'bb')) as n`],
    ['CONCAT', `select length(concat(repeat('a', 40000), repeat('b', 40000))) as n`],
    ['||', `select length(repeat('a', 40000) || repeat('b', 40000)) as n`],
    ['FORMAT', `select length(format('%s%s', repeat('a', 40000), repeat('b', 40000))) as n`],
    ['ARRAY_TO_STRING', `select length(array_to_string([repeat('a', 40000), repeat('b', 40000)], '')) as n`],
    ['ARRAY_CONCAT', 'select array_length(array_concat(generate_array(1, 5000), generate_array(1, 5000))) as n'],
    ['STRING_AGG', 'select length(string_agg(repeat(event_message, 10), \'\')) as n from edge_logs'],
    ['ARRAY_AGG', 'select array_length(array_agg(repeat(event_message, 10))) as n from edge_logs'],
    ['a value computed per row', 'select length(repeat(event_message, 5000)) as n from edge_logs'],
  ];
  for (const [what, sql] of tooLarge) {
    it(`${what} past RINGQL_MAX_VALUE_BYTES → 400 value_too_large`, async () => {
      const r = await query(s.server.port, sql);
      expect(r.status).toBe(400);
      const e = JSON.parse(r.body).error;
      expect(e.code).toBe('value_too_large');
      expect(e.limit).toBe(VALUE_CAP);
    });
  }

  it('a value just under the cap is fine', async () => {
    const r = await query(s.server.port, `select length(repeat('a', ${VALUE_CAP - 10})) as n`);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).result[0].n).toBe(VALUE_CAP - 10);
  });

  it('many large values in one query are bounded too (the per-query sum), never a 500', async () => {
    const cols = Array.from({ length: 40 }, (_, i) => `length(repeat('${i % 10}', ${VALUE_CAP - 100})) as c${i}`).join(', ');
    const r = await query(s.server.port, `select ${cols} from edge_logs`);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error.code).toBe('value_too_large');
  });
});

describe('admission of computed queries', () => {
  let s: Awaited<ReturnType<typeof serverWith>>;
  beforeAll(async () => { s = await serverWith(1); });
  afterAll(async () => { await s.server.close(); s.service.close(); });

  it('beyond RINGQL_MAX_CONCURRENT_QUERIES a query gets 503 overloaded with Retry-After, and the slot comes back', async () => {
    const first = query(s.server.port, HEAVY);
    await new Promise((r) => setTimeout(r, 200));
    const second = await query(s.server.port, 'select count(*) as n from edge_logs');
    expect(second.status).toBe(503);
    expect(JSON.parse(second.body).error.code).toBe('overloaded');
    expect(second.headers['retry-after']).toBe('1');
    const health = await rawRequest(s.server.port, { method: 'GET', path: '/health' });
    expect(JSON.parse(health.body).queries).toMatchObject({ running: 1, max: 1 });
    expect((await first).status).toBe(503);
    const third = await query(s.server.port, 'select count(*) as n from edge_logs');
    expect(third.status).toBe(200);
  });
});
