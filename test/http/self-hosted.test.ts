// Drop-in for a self-hosted stack (SPEC §3, §9): the older dashboards' route by name ignores `ref` and
// `project_tier`, and the reference's token variables work where RINGQL_ACCESS_TOKENS is unset.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { authorize, tokensFromEnv } from '../../src/http/auth.ts';
import { bearer, rawRequest, startTestServer, TOKENS, type TestServer } from './helpers.ts';

const auth = bearer(TOKENS.priv);
let server: TestServer;
let service: Awaited<ReturnType<typeof createQueryService>>;

beforeAll(async () => {
  service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, cache: { sweepMs: 0 } });
  service.ingest('edge.logs.prod', [{ id: 'a', project: 'p', event_message: 'hello', timestamp: new Date(Date.now() - 1000).toISOString() }]);
  await service.createEndpoint({ name: 'echo.ref', query: 'select @ref as r, @project_tier as t, @x as x', cache_duration_seconds: 0 });
  server = await startTestServer(service);
});
afterAll(async () => { await server.close(); service.close(); });

describe('the older dashboards route /api/endpoints/query/name/<name>', () => {
  it('answers as the named endpoint does, ignoring ref and project_tier', async () => {
    const plain = await rawRequest(server.port, { path: '/api/endpoints/query/logs.all?project=p', headers: auth });
    const legacy = await rawRequest(server.port, { path: '/api/endpoints/query/name/logs.all?project=p&ref=abcd&project_tier=FREE', headers: auth });
    expect(legacy.status).toBe(200);
    expect(legacy.body).toBe(plain.body);
    const echoed = await rawRequest(server.port, { path: '/api/endpoints/query/echo.ref?ref=abcd&project_tier=FREE&x=1', headers: auth });
    expect(JSON.parse(echoed.body)).toEqual({ result: [{ r: 'abcd', t: 'FREE', x: '1' }] });
    const ignored = await rawRequest(server.port, { path: '/api/endpoints/query/name/echo.ref?ref=abcd&PROJECT_TIER=FREE&x=1', headers: auth });
    expect(JSON.parse(ignored.body)).toEqual({ result: [{ r: null, t: null, x: '1' }] });
  });

  it('is authenticated and 404s an unknown name like the main route', async () => {
    expect((await rawRequest(server.port, { path: '/api/endpoints/query/name/logs.all?project=p' })).status).toBe(401);
    const r = await rawRequest(server.port, { path: '/api/endpoints/query/name/nope', headers: auth });
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body).error.code).toBe('endpoint_not_found');
  });
});

describe("the reference's token variables", () => {
  it('LOGFLARE_PRIVATE_ACCESS_TOKEN is private, LOGFLARE_PUBLIC_ACCESS_TOKEN ingest+query, used only where RINGQL_ACCESS_TOKENS is unset', () => {
    const t = tokensFromEnv({ LOGFLARE_PRIVATE_ACCESS_TOKEN: 'priv-1', LOGFLARE_PUBLIC_ACCESS_TOKEN: 'pub-1' });
    expect(t.generated).toBeNull();
    expect(() => authorize(t, 'priv-1', 'private')).not.toThrow();
    expect(() => authorize(t, 'pub-1', 'ingest')).not.toThrow();
    expect(() => authorize(t, 'pub-1', 'query')).not.toThrow();
    expect(() => authorize(t, 'pub-1', 'private')).toThrow(expect.objectContaining({ code: 'forbidden' }));
    const own = tokensFromEnv({ RINGQL_ACCESS_TOKENS: 'mine:query', LOGFLARE_PRIVATE_ACCESS_TOKEN: 'priv-1' });
    expect(() => authorize(own, 'priv-1', 'query')).toThrow(expect.objectContaining({ code: 'unauthorized' }));
    expect(() => authorize(own, 'mine', 'query')).not.toThrow();
    expect(tokensFromEnv({}).generated).toMatch(/^[\w-]{20,}$/);
    expect(() => tokensFromEnv({ LOGFLARE_PUBLIC_ACCESS_TOKEN: 'a,b' })).toThrow(/LOGFLARE_PUBLIC_ACCESS_TOKEN/);
  });
});
