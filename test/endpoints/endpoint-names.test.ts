// Endpoint names over HTTP (SPEC §3, issue 13 item 14a): names made only of dots are refused on create
// and update, since clients normalise `.` and `..` out of URLs; other dotted names still work.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { bearer, startTestServer, TOKENS, type TestServer } from '../http/helpers.ts';

const auth = { ...bearer(TOKENS.priv), 'Content-Type': 'application/json' };
let server: TestServer;
let closeService: () => void;

beforeAll(async () => {
  const service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null });
  closeService = () => service.close();
  server = await startTestServer(service);
});
afterAll(async () => {
  await server.close();
  closeService();
});

const send = (method: string, path: string, body: unknown): Promise<Response> =>
  fetch(`${server.url}${path}`, { method, headers: auth, body: JSON.stringify(body) });

describe('endpoint names made only of dots', () => {
  it.each(['.', '..', '...', '.'.repeat(128)])('refuses %j on create with 400 invalid_parameter naming the field', async (name) => {
    const r = await send('POST', '/api/endpoints', { name, query: 'select 1 as one' });
    expect(r.status).toBe(400);
    const body = (await r.json()) as { error: { code: string; param: string; message: string } };
    expect(body.error.code).toBe('invalid_parameter');
    expect(body.error.param).toBe('name');
    expect(body.error.message).toMatch(/only of dots/);
  });

  it('refuses a rename to one on update, and keeps the endpoint as it was', async () => {
    expect((await send('POST', '/api/endpoints', { name: 'dots.ok', query: 'select 1 as one' })).status).toBe(201);
    const r = await send('PUT', '/api/endpoints/dots.ok', { name: '..' });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { param: string } }).error.param).toBe('name');
    expect((await fetch(`${server.url}/api/endpoints/dots.ok`, { headers: auth })).status).toBe(200);
  });

  it.each(['.a', 'a..b', '..x..', '-.-', '_'])('still accepts %j, which a client keeps in the URL', async (name) => {
    const r = await send('POST', '/api/endpoints', { name, query: 'select 1 as one' });
    expect(r.status).toBe(201);
    const q = await fetch(`${server.url}/api/endpoints/query/${name}`, { headers: auth });
    expect(await q.json()).toEqual({ result: [{ one: 1 }] });
  });
});
