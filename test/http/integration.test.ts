// The HTTP layer over the real engine (Store + createQueryService): ingest then query, the built-ins,
// sandbox and error statuses, endpoint management, and created endpoints surviving a restart.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { bearer, rawRequest, startTestServer, TOKENS, type TestServer } from './helpers.ts';

const LOGS_ALL_ID = '7b0f3c2e-4d1a-4c55-9a0e-2f6d8b1e9c01';
const USAGE_ID = 'c4e2a9d7-1b3f-4e8a-8c6d-5a9f0e7b3d12';
const auth = bearer(TOKENS.priv);
const stateDir = mkdtempSync(join(tmpdir(), 'ringql-http-'));

interface Running {
  server: TestServer;
  close(): Promise<void>;
}

async function boot(): Promise<Running> {
  const service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir });
  const server = await startTestServer(service, { maxBodyBytes: 1024 * 1024, maxDecompressedBytes: 4 * 1024 * 1024 });
  return {
    server,
    async close() {
      await server.close();
      service.close();
    },
  };
}

function edgeEvent(i: number, project: string, ageSeconds = 60): Record<string, unknown> {
  const path = ['/rest/v1/todos', '/storage/v1/object', '/auth/v1/token', '/realtime/v1/websocket'][i % 4]!;
  return {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    timestamp: new Date(Date.now() - ageSeconds * 1000 - i * 1000).toISOString(),
    event_message: `GET ${path} 200 from 10.0.0.${i % 250}`,
    project,
    metadata: { request: { method: 'GET', path, url: `https://${project}.api.example.com${path}` }, response: { status_code: 200 } },
  };
}

type Rows = { result: Record<string, unknown>[] };
let app: Running;
let url: string;
const get = (path: string, headers: Record<string, string> = auth) => fetch(`${url}${path}`, { headers });
const send = (method: string, path: string, body?: unknown) =>
  fetch(`${url}${path}`, { method, headers: { ...auth, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

beforeAll(async () => {
  app = await boot();
  url = app.server.url;
});
afterAll(async () => {
  await app.close();
  rmSync(stateDir, { recursive: true, force: true });
});

describe('ingest, then query', () => {
  it('stores events and logs.all returns them, by name, id and the legacy path', async () => {
    const r = await send('POST', '/api/logs?source_name=edge.logs.prod', { batch: Array.from({ length: 6 }, (_, i) => edgeEvent(i, 'projone')) });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ message: 'Logged!' });
    const byName = await get('/api/endpoints/query/logs.all?project=projone');
    expect(byName.status).toBe(200);
    expect(byName.headers.get('x-row-count')).toBe('6');
    expect(byName.headers.get('x-cache')).toBe('MISS');
    expect(byName.headers.get('server-timing')).toMatch(/dur=/);
    const text = await byName.text();
    const rows = (JSON.parse(text) as Rows).result;
    expect(rows).toHaveLength(6);
    expect(rows[0]!.id).toBe('00000000-0000-4000-8000-000000000000');
    expect((await (await get(`/api/endpoints/query/${LOGS_ALL_ID}?project=projone`)).text())).toBe(text);
    expect((await (await get(`/endpoints/query/logs.all?project=projone&api_key=ignored`)).text())).toBe(text);
  });

  it('takes gzip NDJSON and reports events too old to keep as dropped', async () => {
    const ndjson = [edgeEvent(100, 'projtwo'), edgeEvent(101, 'projtwo', 30 * 86_400)].map((e) => JSON.stringify(e)).join('\n');
    const gz = gzipSync(ndjson);
    const r = await rawRequest(app.server.port, {
      method: 'POST', path: '/logs?source_name=edge.logs.prod',
      headers: { ...bearer(TOKENS.ingest), 'Content-Type': 'application/x-ndjson', 'Content-Encoding': 'gzip', 'Content-Length': gz.length }, body: gz,
    });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ message: 'Logged!', dropped: 1 });
    const rows = ((await (await get('/api/endpoints/query/logs.all?project=projtwo')).json()) as Rows).result;
    expect(rows).toHaveLength(1);
  });

  it('an invalid event rejects the whole batch with its index', async () => {
    const r = await send('POST', '/api/logs?source_name=edge.logs.prod', [edgeEvent(200, 'projbad'), 'not an event']);
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: Record<string, unknown> }).error).toMatchObject({ code: 'invalid_events', errors: [expect.objectContaining({ index: 1 })] });
    expect(((await (await get('/api/endpoints/query/logs.all?project=projbad')).json()) as Rows).result).toEqual([]);
  });

  it('an unknown source is 404; the sources list and a schema show what was stored', async () => {
    expect((await send('POST', '/api/logs?source_name=nope.logs', [{ a: 1 }])).status).toBe(404);
    const sources = (await (await get('/api/sources', bearer(TOKENS.ingest))).json()) as { name: string; id: string; rows: number }[];
    expect(sources).toHaveLength(9);
    const edge = sources.find((s) => s.name === 'edge.logs.prod')!;
    expect(edge.rows).toBe(7);
    expect((await send('POST', `/api/logs?source=${edge.id}`, [edgeEvent(300, 'projthree')])).status).toBe(200);
    const schema = (await (await get('/api/sources/edge.logs.prod/schema')).json()) as { path: string[] }[];
    expect(schema.map((f) => f.path.join('.'))).toEqual(expect.arrayContaining(['project', 'metadata.request.path']));
    const health = (await (await fetch(`${url}/health`)).json()) as { rows: Record<string, number> };
    expect(health.rows['edge.logs.prod']).toBe(8);
  });

  it('usage.api-counts counts the edge requests of a project', async () => {
    const r = await get('/api/endpoints/query/usage.api-counts?interval=daily&project=projone');
    expect(r.status).toBe(200);
    const rows = ((await r.json()) as Rows).result;
    const total = rows.reduce((n, row) => n + Number(row.total_rest_requests) + Number(row.total_storage_requests) + Number(row.total_auth_requests) + Number(row.total_realtime_requests), 0);
    expect(total).toBe(6);
    expect((await get(`/api/endpoints/query/${USAGE_ID}?interval=weekly&project=x`)).status).toBe(400);
  });
});

describe('errors from the engine carry real statuses', () => {
  const errorOf = async (r: Response) => ((await r.json()) as { error: Record<string, unknown> }).error;

  it('missing required parameter → 400 naming it', async () => {
    const r = await get('/api/endpoints/query/logs.all');
    expect(r.status).toBe(400);
    expect(await errorOf(r)).toMatchObject({ code: 'missing_parameter', param: 'project' });
  });

  it('sandbox sql runs in the CTEs; reading a source is a 400 sandbox_violation', async () => {
    const sql = encodeURIComponent('select count(*) as count from edge_logs');
    const ok = await get(`/api/endpoints/query/logs.all?project=projone&sql=${sql}`);
    expect(((await ok.json()) as Rows).result).toEqual([{ count: 6 }]);
    const bad = await get(`/api/endpoints/query/logs.all?project=projone&sql=${encodeURIComponent('select * from `edge.logs.prod`')}`);
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).code).toBe('sandbox_violation');
  });

  it('a syntax error gives line and column; an unknown endpoint is 404', async () => {
    const r = await get(`/api/endpoints/query/logs.all?project=p&sql=${encodeURIComponent('select from where')}`);
    expect(r.status).toBe(400);
    expect(await errorOf(r)).toMatchObject({ code: 'syntax_error', line: expect.any(Number), column: expect.any(Number) });
    expect((await get('/api/endpoints/query/no.such.endpoint')).status).toBe(404);
  });
});

describe('endpoint management and restart', () => {
  let createdId = '';

  it('lists the built-ins with their fixed ids', async () => {
    const list = (await (await get('/api/endpoints')).json()) as { id: string; name: string; builtin: boolean }[];
    expect(list).toEqual(expect.arrayContaining([
      expect.objectContaining({ id: LOGS_ALL_ID, name: 'logs.all', builtin: true }),
      expect.objectContaining({ id: USAGE_ID, name: 'usage.api-counts', builtin: true }),
    ]));
  });

  it('creates (201), runs, rejects a duplicate name (409), updates (200); built-ins are read-only (409)', async () => {
    const created = await send('POST', '/api/endpoints', {
      name: 'my.count', query: 'select count(*) as c from `edge.logs.prod` where project = @project', cache_duration_seconds: 0,
    });
    expect(created.status).toBe(201);
    const info = (await created.json()) as { id: string; token: string; name: string };
    expect(info.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(info.token).toBe(info.id);
    createdId = info.id;
    const run = await get('/api/endpoints/query/my.count?project=projone');
    expect(((await run.json()) as Rows).result).toEqual([{ c: 6 }]);
    expect((await send('POST', '/api/endpoints', { name: 'my.count', query: 'select 1' })).status).toBe(409);
    const bad = await send('POST', '/api/endpoints', { name: 'bad.one', query: 'select * from `no.such.source`' });
    expect(bad.status).toBe(400);
    const updated = await send('PUT', `/api/endpoints/${createdId}`, { description: 'counts a project' });
    expect(updated.status).toBe(200);
    expect(((await updated.json()) as { description: string }).description).toBe('counts a project');
    expect((await send('DELETE', '/api/endpoints/logs.all')).status).toBe(409);
    expect((await send('PUT', '/api/endpoints/usage.api-counts', { max_limit: 5 })).status).toBe(409);
  });

  it('keeps created endpoints across a restart with the same state directory; deletes stick too', async () => {
    await app.close();
    app = await boot();
    url = app.server.url;
    const got = await get('/api/endpoints/my.count');
    expect(got.status).toBe(200);
    expect(await got.json()).toMatchObject({ id: createdId, description: 'counts a project' });
    const del = await send('DELETE', '/api/endpoints/my.count');
    expect(del.status).toBe(204);
    await app.close();
    app = await boot();
    url = app.server.url;
    expect((await get(`/api/endpoints/${createdId}`)).status).toBe(404);
  });
});
