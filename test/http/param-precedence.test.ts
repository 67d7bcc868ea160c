// SPEC §3: in a POST run, a JSON body value wins over a query-string value of the same parameter,
// whatever the case of either spelling (names match case-insensitively). Real service, real server.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { bearer, rawRequest, startTestServer, TOKENS, type TestServer } from './helpers.ts';

let server: TestServer;
let service: Awaited<ReturnType<typeof createQueryService>>;

beforeAll(async () => {
  service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null });
  const ts = new Date(Date.now() - 5000).toISOString();
  service.ingest('edge.logs.prod', [
    { id: 'a', timestamp: ts, project: 'a', event_message: 'from a', metadata: {} },
    { id: 'b', timestamp: ts, project: 'b', event_message: 'from b', metadata: {} },
  ]);
  server = await startTestServer(service);
});
afterAll(async () => {
  await server.close();
  service.close();
});

async function projectSeen(queryName: string, bodyName: string): Promise<string[]> {
  const r = await rawRequest(server.port, {
    method: 'POST', path: `/api/endpoints/query/logs.all?${queryName}=a`,
    headers: { ...bearer(TOKENS.priv), 'Content-Type': 'application/json' },
    body: JSON.stringify({ [bodyName]: 'b', sql: 'select event_message from edge_logs' }),
  });
  expect(r.status).toBe(200);
  return (JSON.parse(r.body) as { result: { event_message: string }[] }).result.map((x) => x.event_message);
}

describe('POST parameters: the body wins over the query string whatever the case', () => {
  for (const [q, b] of [['project', 'project'], ['PROJECT', 'project'], ['project', 'PROJECT'], ['Project', 'pRoJeCt']]) {
    it(`?${q}=a with body {"${b}":"b"} → b`, async () => {
      expect(await projectSeen(q, b)).toEqual(['from b']);
    });
  }

  it('a query-string value with no body counterpart still counts', async () => {
    const r = await rawRequest(server.port, {
      method: 'POST', path: '/api/endpoints/query/logs.all?PROJECT=a',
      headers: { ...bearer(TOKENS.priv), 'Content-Type': 'application/json' }, body: JSON.stringify({ sql: 'select event_message from edge_logs' }),
    });
    expect(JSON.parse(r.body)).toEqual({ result: [{ event_message: 'from a' }] });
  });
});
