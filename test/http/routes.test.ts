// Routes of SPEC §3 against a recording fake service: running (params, body, redaction header,
// response headers), management, sources, health, CORS, 404/405/414, and the error body shape.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, FAKE_ENDPOINT, fakeService, startTestServer, TOKENS, type FakeService, type TestServer } from './helpers.ts';

let svc: FakeService;
let server: TestServer;
beforeAll(async () => {
  svc = fakeService();
  server = await startTestServer(svc, { corsOrigin: 'https://dash.example' });
});
afterAll(() => server.close());
beforeEach(() => {
  svc.runs.length = 0;
  svc.runResponse = { body: Buffer.from('{"result":[{"a":1}]}'), rowCount: 1, truncated: false, cache: 'MISS', ageSeconds: 0, timings: [{ name: 'plan', ms: 0.12 }, { name: 'exec', ms: 1.5 }] };
});

const auth = bearer(TOKENS.priv);
const get = (path: string, headers: Record<string, string> = auth) => fetch(`${server.url}${path}`, { headers });
const errorOf = async (r: Response) => ((await r.json()) as { error: Record<string, unknown> }).error;

describe('run a saved query', () => {
  it('answers the service body exactly, with the metadata headers', async () => {
    const r = await get('/api/endpoints/query/fake.one');
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('{"result":[{"a":1}]}');
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(r.headers.get('x-row-count')).toBe('1');
    expect(r.headers.get('x-cache')).toBe('MISS');
    expect(r.headers.get('x-cache-kind')).toBeNull();
    expect(r.headers.get('x-truncated')).toBeNull();
    expect(r.headers.get('age')).toBe('0');
    expect(r.headers.get('server-timing')).toBe('plan;dur=0.12, exec;dur=1.5');
    const exposed = r.headers.get('access-control-expose-headers')!.split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['X-Row-Count', 'X-Truncated', 'X-Cache', 'X-Cache-Kind', 'Age', 'Server-Timing']));
    expect(r.headers.get('access-control-allow-origin')).toBe('https://dash.example');
  });

  it('says when rows were cut and when the answer came from a cache', async () => {
    svc.runResponse = { ...svc.runResponse, truncated: true, cache: 'HIT', cacheKind: 'bucket', ageSeconds: 12.7, rowCount: 1000 };
    const r = await get('/api/endpoints/query/fake.one');
    expect(r.headers.get('x-truncated')).toBe('true');
    expect(r.headers.get('x-cache')).toBe('HIT');
    expect(r.headers.get('x-cache-kind')).toBe('bucket');
    expect(r.headers.get('age')).toBe('12');
    expect(r.headers.get('x-row-count')).toBe('1000');
  });

  it('decodes the query string like an HTML form and passes the endpoint name or id', async () => {
    await get('/api/endpoints/query/fake.one?project=a+b%2Bc&sql=select%20%2A&empty=&flag&x=1&x=2');
    const req = svc.runs[0]!;
    expect(req.endpoint).toBe('fake.one');
    expect(Object.fromEntries(req.params)).toEqual({ project: 'a b+c', sql: 'select *', empty: '', flag: '', x: '2' });
    expect(req.redactHeader).toBe(false);
    await get(`/endpoints/query/${FAKE_ENDPOINT.id}`); // legacy path
    expect(svc.runs[1]!.endpoint).toBe(FAKE_ENDPOINT.id);
  });

  it('rejects bad percent-encoding with 400 invalid_parameter', async () => {
    const r = await get('/api/endpoints/query/fake.one?project=%E0%A4%A');
    expect(r.status).toBe(400);
    expect(await errorOf(r)).toMatchObject({ code: 'invalid_parameter', param: 'project' });
  });

  it('turns on redaction only for LF-ENDPOINT-REDACT-PII: true (any case)', async () => {
    await get('/api/endpoints/query/fake.one', { ...auth, 'LF-ENDPOINT-REDACT-PII': 'TRUE' });
    await get('/api/endpoints/query/fake.one', { ...auth, 'lf-endpoint-redact-pii': 'false' });
    expect(svc.runs.map((r) => r.redactHeader)).toEqual([true, false]);
  });

  it('POST: JSON body values win over the query string; numbers and booleans become strings', async () => {
    const r = await fetch(`${server.url}/api/endpoints/query/fake.one?project=q&interval=hourly`, {
      method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ project: 'body', n: 5, b: true, skip: null }),
    });
    expect(r.status).toBe(200);
    expect(Object.fromEntries(svc.runs[0]!.params)).toEqual({ project: 'body', interval: 'hourly', n: '5', b: 'true' });
  });

  it('POST: an empty body uses the query string; a non-object body or nested value is a 400', async () => {
    expect((await fetch(`${server.url}/api/endpoints/query/fake.one?project=q`, { method: 'POST', headers: auth })).status).toBe(200);
    expect(Object.fromEntries(svc.runs[0]!.params)).toEqual({ project: 'q' });
    for (const body of ['[1,2]', '"x"', '{bad json', 'null']) {
      const r = await fetch(`${server.url}/api/endpoints/query/fake.one`, { method: 'POST', headers: auth, body });
      expect(r.status).toBe(400);
      expect((await errorOf(r)).code).toBe('invalid_parameter');
    }
    const r = await fetch(`${server.url}/api/endpoints/query/fake.one`, { method: 'POST', headers: auth, body: '{"project":{"a":1}}' });
    expect(await errorOf(r)).toMatchObject({ code: 'invalid_parameter', param: 'project' });
  });

  it('maps service errors to their status and body; 503 carries Retry-After', async () => {
    const nf = await get('/api/endpoints/query/missing');
    expect(nf.status).toBe(404);
    expect(await nf.json()).toEqual({ error: { code: 'endpoint_not_found', message: 'No endpoint missing' } });
    const slow = await get('/api/endpoints/query/slow');
    expect(slow.status).toBe(503);
    expect(slow.headers.get('retry-after')).toBe('2');
    expect(await errorOf(slow)).toMatchObject({ code: 'query_timeout', retry_after: 2 });
  });

  it('a plain Error is a 500 without internals, logged with its stack', async () => {
    const r = await get('/api/endpoints/query/boom?api_key_should_not_log=1');
    expect(r.status).toBe(500);
    const text = await r.text();
    expect(JSON.parse(text)).toEqual({ error: { code: 'internal', message: expect.any(String) } });
    expect(text).not.toMatch(/secret|stack|\.ts/);
    const line = server.logs.find((l) => l.includes('secret internal detail'))!;
    expect(line).toMatch(/GET \/api\/endpoints\/query\/boom/);
    expect(line).toMatch(/at .*service|at /);
    expect(line).not.toContain('api_key');
    expect(line).not.toContain(TOKENS.priv);
  });
});

describe('management, sources, health', () => {
  it('lists, reads, creates (201), updates (200), deletes (204)', async () => {
    const list = await get('/api/endpoints');
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual([FAKE_ENDPOINT]);
    expect(await (await get(`/api/endpoints/${FAKE_ENDPOINT.id}`)).json()).toEqual(FAKE_ENDPOINT);
    expect((await get('/api/endpoints/nope')).status).toBe(404);
    const created = await fetch(`${server.url}/api/endpoints`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'new.one', query: 'select 1' }) });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { name: string }).name).toBe('new.one');
    const updated = await fetch(`${server.url}/api/endpoints/fake.one`, { method: 'PUT', headers: auth, body: '{"description":"d"}' });
    expect(updated.status).toBe(200);
    expect(((await updated.json()) as { description: string }).description).toBe('d');
    const del = await fetch(`${server.url}/api/endpoints/fake.one`, { method: 'DELETE', headers: auth });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    const bad = await fetch(`${server.url}/api/endpoints`, { method: 'POST', headers: auth, body: '[]' });
    expect(bad.status).toBe(400);
    const empty = await fetch(`${server.url}/api/endpoints`, { method: 'POST', headers: auth });
    expect((await errorOf(empty)).code).toBe('invalid_parameter');
  });

  it('lists sources and a schema; an unknown source is 404', async () => {
    const s = await get('/api/sources', bearer(TOKENS.ingest));
    expect(await s.json()).toEqual([expect.objectContaining({ name: 'edge.logs.prod', rows: 0, min_timestamp: null })]);
    expect(await (await get('/api/sources/edge.logs.prod/schema')).json()).toEqual([{ path: ['id'], type: 'STRING', mode: 'NULLABLE' }]);
    const nf = await get('/api/sources/nope/schema');
    expect(nf.status).toBe(404);
    expect((await errorOf(nf)).code).toBe('source_not_found');
  });

  it('/health needs no token', async () => {
    const r = await fetch(`${server.url}/health`);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ status: 'ok', uptime_seconds: expect.any(Number), rows: { 'edge.logs.prod': 0 } });
  });

  it('HEAD on a GET route answers headers only', async () => {
    const r = await fetch(`${server.url}/health`, { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
  });
});

describe('routing and CORS', () => {
  it('unknown route → 404 not_found (error body shape)', async () => {
    const r = await get('/nope');
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ error: { code: 'not_found', message: expect.stringContaining('/nope') } });
    expect(r.headers.get('access-control-allow-origin')).toBe('https://dash.example');
  });

  it('known path, wrong method → 405 with Allow', async () => {
    const r = await fetch(`${server.url}/api/endpoints`, { method: 'PATCH', headers: auth });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    expect(await errorOf(r)).toMatchObject({ code: 'method_not_allowed', allowed: ['GET', 'HEAD', 'POST', 'OPTIONS'] });
    const logs = await fetch(`${server.url}/api/logs`, { headers: auth });
    expect(logs.status).toBe(405);
    expect(logs.headers.get('allow')).toBe('POST, OPTIONS');
    const health = await fetch(`${server.url}/health`, { method: 'DELETE' });
    expect(health.headers.get('allow')).toBe('GET, HEAD');
  });

  it('URL over the limit → 414, before authentication', async () => {
    const r = await fetch(`${server.url}/api/endpoints/query/fake.one?sql=${'a'.repeat(5000)}`);
    expect(r.status).toBe(414);
    expect((await errorOf(r)).code).toBe('uri_too_long');
  });

  it('answers preflights on API, legacy run and ingest paths without a token', async () => {
    for (const path of ['/api/endpoints/query/logs.all', '/api/logs', '/endpoints/query/x', '/logs', '/api/anything']) {
      const r = await fetch(`${server.url}${path}`, {
        method: 'OPTIONS', headers: { Origin: 'https://dash.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' },
      });
      expect(r.status).toBe(204);
      expect(r.headers.get('access-control-allow-origin')).toBe('https://dash.example');
      expect(r.headers.get('access-control-allow-methods')).toMatch(/GET.*POST.*PUT.*DELETE/);
      expect(r.headers.get('access-control-allow-headers')).toBe('Authorization, X-API-KEY, Content-Type, Content-Encoding, LF-ENDPOINT-REDACT-PII');
      expect(Number(r.headers.get('access-control-max-age'))).toBeGreaterThan(0);
      expect(await r.text()).toBe('');
      expect(r.headers.get('content-length')).toBeNull();
    }
  });
});
