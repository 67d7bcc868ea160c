// GET /api/openapi.json (SPEC §3, issue 19 item 2): the document validates with a real OpenAPI 3.1
// validator, describes each saved endpoint's parameters, and follows endpoints as they are created.

import { validate, compileErrors } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { bearer, rawRequest, startTestServer, TOKENS, type TestServer } from './helpers.ts';

let server: TestServer;
let service: Awaited<ReturnType<typeof createQueryService>>;

beforeAll(async () => {
  service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, cache: { sweepMs: 0 } });
  server = await startTestServer(service);
});
afterAll(async () => { await server.close(); service.close(); });

interface Param { name: string; in: string; required?: boolean; schema: { enum?: string[] } }
interface Doc { openapi: string; paths: Record<string, Record<string, { parameters?: Param[]; operationId?: string }>>; components: { securitySchemes: Record<string, unknown> } }

async function fetchDoc(token: string = TOKENS.query): Promise<Doc> {
  const r = await rawRequest(server.port, { path: '/api/openapi.json', headers: bearer(token) });
  expect(r.status).toBe(200);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  return JSON.parse(r.body) as Doc;
}

async function expectValid(doc: Doc): Promise<void> {
  // validate() dereferences in place: give it a copy.
  const result = await validate(structuredClone(doc) as Parameters<typeof validate>[0]);
  if (!result.valid) throw new Error(compileErrors(result));
  expect(result.specification).toBe('OpenAPI');
}

const queryParams = (doc: Doc, path: string): Map<string, Param> =>
  new Map((doc.paths[path]!.get!.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p]));

describe('GET /api/openapi.json', () => {
  it('needs a valid token of any scope', async () => {
    expect((await rawRequest(server.port, { path: '/api/openapi.json' })).status).toBe(401);
    await fetchDoc(TOKENS.ingest);
  });

  it('is a valid OpenAPI 3.1 document with the built-ins, ingest, management, auth schemes and the error body', async () => {
    const doc = await fetchDoc();
    expect(doc.openapi).toBe('3.1.0');
    await expectValid(doc);
    for (const p of ['/api/endpoints/query/logs.all', '/api/endpoints/query/usage.api-counts', '/api/logs', '/logs', '/api/endpoints', '/api/endpoints/{idOrName}', '/api/sources']) {
      expect(doc.paths[p], p).toBeDefined();
    }
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKeyHeader', 'apiKeyQuery', 'bearer']);
    // usage.api-counts declares interval (required, allowed minutely/hourly/daily) and project (required); it is sandboxable.
    const usage = queryParams(doc, '/api/endpoints/query/usage.api-counts');
    expect(usage.get('interval')).toMatchObject({ required: true, schema: { enum: ['minutely', 'hourly', 'daily'] } });
    expect(usage.get('project')!.required).toBe(true);
    expect(usage.has('sql') && usage.has('lql')).toBe(true);
    const logs = queryParams(doc, '/api/endpoints/query/logs.all');
    expect(logs.get('project')!.required).toBe(true);
    expect(logs.get('iso_timestamp_start')!.required).toBe(false);
  });

  it('follows the endpoint list: a created endpoint appears with its parameters, a deleted one goes', async () => {
    const auth = { ...bearer(TOKENS.priv), 'Content-Type': 'application/json' };
    const created = await rawRequest(server.port, {
      method: 'POST', path: '/api/endpoints', headers: auth,
      body: JSON.stringify({ name: 'errors.by-level', query: 'select @level as level, @limit as lim', params: [{ name: 'level', required: true, allowed: ['error', 'warning'] }] }),
    });
    expect(created.status).toBe(201);
    const doc = await fetchDoc();
    await expectValid(doc);
    const p = queryParams(doc, '/api/endpoints/query/errors.by-level');
    expect(p.get('level')).toMatchObject({ required: true, schema: { enum: ['error', 'warning'] } });
    expect(p.get('limit')!.required).toBe(false);
    // Not sandboxable (the default): no sql or lql parameter.
    expect(p.has('sql') || p.has('lql')).toBe(false);
    expect((await rawRequest(server.port, { method: 'DELETE', path: '/api/endpoints/errors.by-level', headers: auth })).status).toBe(204);
    expect((await fetchDoc()).paths['/api/endpoints/query/errors.by-level']).toBeUndefined();
  });

  it('offers ?format= only where the endpoint declares no parameter of that name', async () => {
    const auth = { ...bearer(TOKENS.priv), 'Content-Type': 'application/json' };
    await rawRequest(server.port, { method: 'POST', path: '/api/endpoints', headers: auth, body: JSON.stringify({ name: 'fmt.own', query: 'select @format as f' }) });
    const doc = await fetchDoc();
    await expectValid(doc);
    expect(queryParams(doc, '/api/endpoints/query/fmt.own').get('format')!.schema.enum).toBeUndefined();
    expect(queryParams(doc, '/api/endpoints/query/logs.all').get('format')!.schema.enum).toEqual(['json', 'ndjson', 'csv']);
  });
});
