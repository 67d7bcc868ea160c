// Issue 18 items 1-2 over a real server: stats headers on every run answer, and cache hits answered on
// the synchronous path (service.run() is never called for them) with the bytes and headers the async
// path writes; redacted and unredacted requests keep separate answers; Age follows the clock.

import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import type { QueryService } from '../../src/endpoints/service-types.ts';
import { bearer, startTestServer, TOKENS, type TestServer } from './helpers.ts';

const ADDRESS = '10.20.30.40';
let clockUs = Date.now() * 1000;
let service: Awaited<ReturnType<typeof createQueryService>>;
let runs = 0;
/** Server with the hit path (the real service, run() counted) and one whose service has no runCached (async only). */
let fast: TestServer;
let slow: TestServer;

beforeAll(async () => {
  service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, nowMicros: () => clockUs, cache: { sweepMs: 0 } });
  const ts = new Date(clockUs / 1000 - 60_000).toISOString();
  service.ingest('edge.logs.prod', [
    { id: 'a', timestamp: ts, event_message: `from ${ADDRESS}`, metadata: { k: 'v' } },
    { id: 'b', timestamp: ts, event_message: 'plain', metadata: { k: 'w' } },
    { id: 'c', timestamp: ts, event_message: 'third', metadata: {} },
  ]);
  await service.createEndpoint({ name: 'hit.rows', query: 'select id, event_message, @k as k from `edge.logs.prod` order by id', cache_duration_seconds: 60, proactive_requerying_seconds: 0 });
  await service.createEndpoint({ name: 'hit.minutes', query: 'select timestamp_trunc(timestamp, minute) as t, count(*) as n from `edge.logs.prod` group by t order by t', cache_duration_seconds: 60, proactive_requerying_seconds: 0 });
  const counted: QueryService = Object.create(service) as QueryService;
  counted.run = (req) => {
    runs++;
    return service.run(req);
  };
  const asyncOnly: QueryService = Object.create(service) as QueryService;
  Object.defineProperty(asyncOnly, 'runCached', { value: undefined });
  fast = await startTestServer(counted);
  slow = await startTestServer(asyncOnly);
});
afterAll(async () => {
  await fast.close();
  await slow.close();
  service.close();
});

interface Raw {
  status: number;
  /** Header lines in the order they came, as [name, value]. */
  head: [string, string][];
  body: Buffer;
}

function get(server: TestServer, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: server.port, path, headers: { ...bearer(TOKENS.priv), ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const head: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) head.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
        resolve({ status: res.statusCode ?? 0, head, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
  });
}

const header = (r: Raw, name: string): string | undefined => r.head.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
/** The head without the values that differ per request (elapsed time, date). */
const stableHead = (r: Raw) => r.head.filter(([k]) => !/^(x-ringql-elapsed-us|date|uwebsockets)$/i.test(k));

describe('stats headers', () => {
  it('a computed answer says how many stored rows it scanned and how long it took; a hit scanned none', async () => {
    const miss = await get(fast, '/api/endpoints/query/hit.rows?k=stats');
    expect(miss.status).toBe(200);
    expect(header(miss, 'X-Cache')).toBe('MISS');
    // The query reads every stored event of the source once: 3 rows.
    expect(header(miss, 'X-Ringql-Rows-Scanned')).toBe('3');
    expect(header(miss, 'X-Ringql-Elapsed-Us')).toMatch(/^\d+$/);
    expect(header(miss, 'Vary')).toBe('Accept');
    const exposed = header(miss, 'Access-Control-Expose-Headers')!.split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['X-Ringql-Rows-Scanned', 'X-Ringql-Elapsed-Us', 'X-Cache', 'Age']));
    const hit = await get(fast, '/api/endpoints/query/hit.rows?k=stats');
    expect(header(hit, 'X-Cache')).toBe('HIT');
    expect(header(hit, 'X-Ringql-Rows-Scanned')).toBe('0');
    expect(header(hit, 'X-Ringql-Elapsed-Us')).toMatch(/^\d+$/);
  });

  it('errors and other routes carry the elapsed time too', async () => {
    const r = await get(fast, '/api/endpoints/query/no.such.endpoint');
    expect(r.status).toBe(404);
    expect(header(r, 'X-Ringql-Elapsed-Us')).toMatch(/^\d+$/);
  });
});

describe('the synchronous hit path', () => {
  it('answers a result-cache hit without service.run(), with the async path\'s bytes and headers', async () => {
    const path = '/api/endpoints/query/hit.rows?k=bytes';
    const first = await get(fast, path);
    expect(header(first, 'X-Cache')).toBe('MISS');
    const before = runs;
    const syncHit = await get(fast, path);
    expect(runs).toBe(before);
    const asyncHit = await get(slow, path);
    expect(header(syncHit, 'X-Cache')).toBe('HIT');
    expect(header(syncHit, 'X-Cache-Kind')).toBe('result');
    expect(syncHit.body.equals(first.body)).toBe(true);
    expect(syncHit.body.equals(asyncHit.body)).toBe(true);
    expect(stableHead(syncHit)).toEqual(stableHead(asyncHit));
    expect(JSON.parse(syncHit.body.toString()).result.map((r: { id: string }) => r.id)).toEqual(['a', 'b', 'c']);
  });

  it('serves each format of a key from its own answer (Accept)', async () => {
    const path = '/api/endpoints/query/hit.rows?k=format';
    const nd = { Accept: 'application/x-ndjson' };
    await get(fast, path, nd);
    const before = runs;
    const syncHit = await get(fast, path, nd);
    expect(runs).toBe(before);
    const asyncHit = await get(slow, path, nd);
    expect(header(syncHit, 'Content-Type')).toMatch(/^application\/x-ndjson/);
    expect(syncHit.body.toString().split('\n').filter(Boolean)).toHaveLength(3);
    expect(stableHead(syncHit)).toEqual(stableHead(asyncHit));
    expect(syncHit.body.equals(asyncHit.body)).toBe(true);
  });

  it('keeps redacted and unredacted answers apart', async () => {
    const path = '/api/endpoints/query/hit.rows?k=redact';
    const on = { 'LF-ENDPOINT-REDACT-PII': 'true' };
    const plain1 = await get(fast, path);
    const red1 = await get(fast, path, on);
    expect(header(red1, 'X-Cache')).toBe('MISS'); // its own key: not the unredacted answer
    const before = runs;
    const plain2 = await get(fast, path);
    const red2 = await get(fast, path, on);
    expect(runs).toBe(before);
    expect(header(plain2, 'X-Cache')).toBe('HIT');
    expect(header(red2, 'X-Cache')).toBe('HIT');
    expect(plain2.body.toString()).toContain(ADDRESS);
    expect(plain2.body.equals(plain1.body)).toBe(true);
    expect(red2.body.toString()).not.toContain(ADDRESS);
    expect(red2.body.toString()).toContain('REDACTED');
    expect(red2.body.equals(red1.body)).toBe(true);
    expect(stableHead(red2)).toEqual(stableHead(await get(slow, path, on)));
  });

  it('Age counts whole seconds since the answer was computed', async () => {
    const path = '/api/endpoints/query/hit.rows?k=age';
    await get(fast, path);
    clockUs += 7_400_000;
    const before = runs;
    const later = await get(fast, path);
    expect(runs).toBe(before);
    expect(header(later, 'Age')).toBe('7');
    clockUs += 60_000_000; // past cache_duration_seconds: computed again
    const expired = await get(fast, path);
    expect(header(expired, 'X-Cache')).toBe('MISS');
    expect(header(expired, 'Age')).toBe('0');
  });

  it('answers a bucket-cache hit synchronously until an event arrives', async () => {
    const path = '/api/endpoints/query/hit.minutes';
    const first = await get(fast, path);
    expect(JSON.parse(first.body.toString()).result[0].n).toBe(3);
    const before = runs;
    const hit = await get(fast, path);
    expect(runs).toBe(before);
    expect(header(hit, 'X-Cache-Kind')).toBe('bucket');
    expect(stableHead(hit)).toEqual(stableHead(await get(slow, path)));
    service.ingest('edge.logs.prod', [{ id: 'd', timestamp: new Date(clockUs / 1000 - 60_000).toISOString(), event_message: 'late' }]);
    const after = await get(fast, path);
    expect(runs).toBe(before + 1); // the memo no longer holds: the async path brought the new event in
    const total = (JSON.parse(after.body.toString()).result as { n: number }[]).reduce((s, r) => s + r.n, 0);
    expect(total).toBe(4);
  });

  it('never answers from what an endpoint was before it changed', async () => {
    await service.createEndpoint({ name: 'hit.changing', query: "select 'old' as v", cache_duration_seconds: 60, proactive_requerying_seconds: 0 });
    const path = '/api/endpoints/query/hit.changing';
    await get(fast, path);
    expect(header(await get(fast, path), 'X-Cache')).toBe('HIT');
    await service.updateEndpoint('hit.changing', { query: "select 'new' as v, @k as k", params: [{ name: 'k', required: true }] });
    const after = await get(fast, path);
    // The new definition requires k: the URL that was a hit is now the 400 the new rules give.
    expect(after.status).toBe(400);
    const fixed = await get(fast, `${path}?k=1`);
    expect(JSON.parse(fixed.body.toString())).toEqual({ result: [{ v: 'new', k: '1' }] });
  });

  it('answers a name deleted and created again from the new endpoint, and a deleted name not at all', async () => {
    await service.createEndpoint({ name: 'hit.reborn', query: "select 'first' as v", cache_duration_seconds: 60, proactive_requerying_seconds: 0 });
    const path = '/api/endpoints/query/hit.reborn';
    await get(fast, path);
    expect(header(await get(fast, path), 'X-Cache')).toBe('HIT');
    await service.deleteEndpoint('hit.reborn');
    expect((await get(fast, path)).status).toBe(404);
    await service.createEndpoint({ name: 'hit.reborn', query: "select 'second' as v", cache_duration_seconds: 60, proactive_requerying_seconds: 0 });
    await get(fast, path);
    const hit = await get(fast, path);
    expect(header(hit, 'X-Cache')).toBe('HIT');
    expect(JSON.parse(hit.body.toString())).toEqual({ result: [{ v: 'second' }] });
  });

  it('leaves errors, misses and HEAD to the async path', async () => {
    const before = runs;
    expect((await get(fast, '/api/endpoints/query/hit.rows', { Accept: 'image/png' })).status).toBe(406);
    expect((await get(fast, '/api/endpoints/query/hit.rows', { Authorization: 'Bearer nope' })).status).toBe(401);
    expect(runs).toBe(before + 1); // the 406 came from run(); the 401 from dispatch
  });
});
