// GET /metrics (SPEC §3 Other routes, issue 19 item 1): a real server and service, the exposition read
// by a strict text parser, counters moving by what ingest and queries did, auth and the public switch.

import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { serverConfig } from '../../src/core/config.ts';
import { parsePromText, promValue, type PromFamily } from '../helpers/prom-text.ts';
import { bearer, rawRequest, startTestServer, TOKENS, type TestServer } from './helpers.ts';

/** RINGQL_METRICS_PUBLIC as the config module reads it. */
const metricsPublicFromEnv = (env: Record<string, string>): boolean => serverConfig(env).metricsPublic;
const LOGS_ALL_ID = '7b0f3c2e-4d1a-4c55-9a0e-2f6d8b1e9c01';
let server: TestServer;
let service: Awaited<ReturnType<typeof createQueryService>>;

beforeAll(async () => {
  service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, cache: { sweepMs: 0 } });
  server = await startTestServer(service);
});
afterAll(async () => { await server.close(); service.close(); });

async function scrape(port: number, headers: Record<string, string> = bearer(TOKENS.query)): Promise<Map<string, PromFamily>> {
  const r = await rawRequest(port, { path: '/metrics', headers });
  expect(r.status).toBe(200);
  expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePromText(r.body);
}

const event = (i: number): Record<string, unknown> => ({ id: `m${i}`, project: 'p1', event_message: `GET /x ${i}`, timestamp: new Date(Date.now() - 1000 * i).toISOString() });

describe('GET /metrics', () => {
  it('needs a token of any scope', async () => {
    expect((await rawRequest(server.port, { path: '/metrics' })).status).toBe(401);
    expect((await rawRequest(server.port, { path: '/metrics', headers: bearer('nope') })).status).toBe(401);
    for (const t of [TOKENS.ingest, TOKENS.query, TOKENS.priv]) expect((await rawRequest(server.port, { path: '/metrics', headers: bearer(t) })).status).toBe(200);
  });

  it('names every family ringql_* (or the default process metrics) in base units, counters ending in _total', async () => {
    const m = await scrape(server.port);
    for (const f of m.values()) {
      expect(f.name).toMatch(/^(ringql_|process_|nodejs_)/);
      if (!f.name.startsWith('ringql_')) continue; // prom-client's own names (nodejs_active_resources_total is a gauge)
      if (f.type === 'counter') expect(f.name).toMatch(/_total$/);
      else expect(f.name).not.toMatch(/_total$/);
      expect(f.name).not.toMatch(/_(ms|milliseconds|kb|mb|us)(_|$)/);
    }
    for (const name of ['ringql_ingest_events_total', 'ringql_ingest_bytes_total', 'ringql_ingest_errors_total', 'ringql_queries_total',
      'ringql_query_duration_seconds', 'ringql_cache_hits_total', 'ringql_cache_misses_total', 'ringql_cache_warm_runs_total',
      'ringql_bucket_cache_bytes', 'ringql_source_events', 'ringql_source_bytes', 'ringql_source_evicted_events_total',
      'process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds']) {
      expect(m.has(name), name).toBe(true);
    }
    expect(m.get('ringql_query_duration_seconds')!.type).toBe('histogram');
    // Nine sources, each with a held-events gauge, before anything was ingested.
    expect(m.get('ringql_source_events')!.samples.length).toBe(9);
  });

  it('counts ingested events and bytes per source, and ingest errors by code', async () => {
    const before = await scrape(server.port);
    const body = JSON.stringify({ batch: [event(1), event(2), event(3)] });
    const gz = gzipSync(body);
    const headers = { ...bearer(TOKENS.ingest), 'Content-Type': 'application/json' };
    expect((await rawRequest(server.port, { method: 'POST', path: '/api/logs?source_name=edge.logs.prod', headers, body })).status).toBe(200);
    // By UUID through /logs, gzipped: counted under the source's name, with the inflated size.
    const uuid = service.sources().find((s) => s.name === 'edge.logs.prod')!.id;
    const r2 = await rawRequest(server.port, { method: 'POST', path: `/logs?source=${uuid}`, headers: { ...headers, 'Content-Encoding': 'gzip' }, body: gz });
    expect(r2.status).toBe(200);
    expect((await rawRequest(server.port, { method: 'POST', path: '/api/logs?source_name=nope', headers, body })).status).toBe(404);
    expect((await rawRequest(server.port, { method: 'POST', path: '/api/logs?source_name=edge.logs.prod', headers: { 'Content-Type': 'application/json' }, body })).status).toBe(401);
    expect((await rawRequest(server.port, { method: 'POST', path: '/api/logs?source_name=edge.logs.prod', headers, body: '{"batch":[' })).status).toBe(400);
    const after = await scrape(server.port);
    const delta = (name: string, labels: Record<string, string>): number => promValue(after, name, labels) - promValue(before, name, labels);
    const edge = { source: 'edge.logs.prod' };
    expect(delta('ringql_ingest_events_total', edge)).toBe(6);
    expect(delta('ringql_ingest_bytes_total', edge)).toBe(2 * Buffer.byteLength(body));
    expect(delta('ringql_ingest_batches_total', edge)).toBe(2);
    expect(after.get('ringql_ingest_events_total')!.samples.map((s) => s.labels.source)).toEqual(['edge.logs.prod']);
    expect(delta('ringql_ingest_errors_total', { code: 'source_not_found' })).toBe(1);
    expect(delta('ringql_ingest_errors_total', { code: 'unauthorized' })).toBe(1);
    expect(delta('ringql_ingest_errors_total', { code: 'invalid_events' })).toBe(1);
    // The store's figures: the six events (ids differ) are held.
    expect(promValue(after, 'ringql_source_events', edge) - promValue(before, 'ringql_source_events', edge)).toBe(6);
    expect(promValue(after, 'ringql_source_bytes', edge)).toBeGreaterThan(promValue(before, 'ringql_source_bytes', edge));
  });

  it('counts queries by endpoint name and outcome, with a duration per cache outcome', async () => {
    const before = await scrape(server.port);
    const auth = bearer(TOKENS.query);
    const cacheOf = (h: Record<string, unknown>): string => (h['x-cache'] === 'MISS' ? 'miss' : String(h['x-cache-kind']));
    const seen: string[] = [];
    for (const path of [`/api/endpoints/query/logs.all?project=p1`, `/api/endpoints/query/${LOGS_ALL_ID}?project=p1`, '/api/endpoints/query/name/logs.all?project=p1&ref=x']) {
      const r = await rawRequest(server.port, { path, headers: auth });
      expect(r.status).toBe(200);
      seen.push(cacheOf(r.headers));
    }
    for (let i = 0; i < 2; i++) {
      const r = await rawRequest(server.port, { path: '/api/endpoints/query/usage.api-counts?interval=hourly&project=p1', headers: auth });
      expect(r.status).toBe(200);
      if (i === 1) expect(r.headers['x-cache']).toBe('HIT');
    }
    expect((await rawRequest(server.port, { path: '/api/endpoints/query/logs.all', headers: auth })).status).toBe(400);
    expect((await rawRequest(server.port, { path: '/api/endpoints/query/usage.api-counts?interval=weekly&project=p1', headers: auth })).status).toBe(400);
    expect((await rawRequest(server.port, { path: '/api/endpoints/query/no.such.endpoint', headers: auth })).status).toBe(404);
    expect((await rawRequest(server.port, { path: '/api/endpoints/query/logs.all?project=p1' })).status).toBe(401);
    const after = await scrape(server.port);
    const delta = (name: string, labels: Record<string, string>): number => promValue(after, name, labels) - promValue(before, name, labels);
    expect(delta('ringql_queries_total', { endpoint: 'logs.all', outcome: 'ok' })).toBe(3);
    expect(delta('ringql_queries_total', { endpoint: 'usage.api-counts', outcome: 'ok' })).toBe(2);
    expect(delta('ringql_queries_total', { endpoint: 'logs.all', outcome: 'missing_parameter' })).toBe(1);
    expect(delta('ringql_queries_total', { endpoint: 'logs.all', outcome: 'unauthorized' })).toBe(1);
    expect(delta('ringql_queries_total', { endpoint: 'usage.api-counts', outcome: 'invalid_parameter' })).toBe(1);
    expect(delta('ringql_queries_total', { endpoint: '(unknown)', outcome: 'endpoint_not_found' })).toBe(1);
    // logs.all has no cache (cache_duration_seconds 0): three misses.
    expect(seen).toEqual(['miss', 'miss', 'miss']);
    expect(delta('ringql_query_duration_seconds_count', { endpoint: 'logs.all', cache: 'miss' })).toBe(3);
    const usageHits = ['result', 'bucket'].reduce((n, c) => n + delta('ringql_query_duration_seconds_count', { endpoint: 'usage.api-counts', cache: c }), 0);
    expect(usageHits).toBe(1);
    expect(delta('ringql_query_duration_seconds_sum', { endpoint: 'logs.all', cache: 'miss' })).toBeGreaterThan(0);
    const hits = promValue(after, 'ringql_cache_hits_total', { kind: 'result' }) + promValue(after, 'ringql_cache_hits_total', { kind: 'bucket' })
      - promValue(before, 'ringql_cache_hits_total', { kind: 'result' }) - promValue(before, 'ringql_cache_hits_total', { kind: 'bucket' });
    expect(hits).toBe(1);
    expect(delta('ringql_cache_misses_total', {})).toBeGreaterThanOrEqual(1);
  });

  it('keeps one registry per server: a second server counts only its own requests', async () => {
    const other = await startTestServer(service);
    try {
      const m = await scrape(other.port);
      expect(m.get('ringql_ingest_events_total')!.samples).toEqual([]);
      expect(m.get('ringql_queries_total')!.samples).toEqual([]);
      // The store is shared, so its figures agree.
      expect(promValue(m, 'ringql_source_events', { source: 'edge.logs.prod' })).toBe(6);
    } finally {
      await other.close();
    }
  });
});

describe('RINGQL_METRICS_PUBLIC', () => {
  it('opens /metrics to scrapers without a token; other routes keep theirs', async () => {
    const open = await startTestServer(service, { metricsPublic: true });
    try {
      await scrape(open.port, {});
      expect((await rawRequest(open.port, { path: '/api/sources' })).status).toBe(401);
    } finally {
      await open.close();
    }
  });

  it('accepts 0, 1, true, false or nothing, and names itself otherwise', () => {
    expect(metricsPublicFromEnv({})).toBe(false);
    expect(metricsPublicFromEnv({ RINGQL_METRICS_PUBLIC: '0' })).toBe(false);
    expect(metricsPublicFromEnv({ RINGQL_METRICS_PUBLIC: ' 1 ' })).toBe(true);
    expect(metricsPublicFromEnv({ RINGQL_METRICS_PUBLIC: 'true' })).toBe(true);
    expect(() => metricsPublicFromEnv({ RINGQL_METRICS_PUBLIC: 'yes' })).toThrow(/RINGQL_METRICS_PUBLIC.*0 or 1/);
  });
});
