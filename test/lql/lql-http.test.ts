// Over a real server on loopback (logs.all over the fixture store, clock 2025-01-15T12:00:00Z): the
// new LQL forms answer rows, and an ambiguous bare name in sandboxed SQL is a 400 ambiguous_name.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureService } from '../helpers/fixture-store.ts';
import { bearer, startTestServer, TOKENS, type TestServer } from '../http/helpers.ts';

let server: TestServer;
let closeService: () => void;

beforeAll(async () => {
  const { service } = await fixtureService();
  closeService = () => service.close();
  server = await startTestServer(service);
});
afterAll(async () => {
  await server.close();
  closeService();
});

const get = (param: 'lql' | 'sql', text: string): Promise<Response> =>
  fetch(`${server.url}/api/endpoints/query/logs.all?project=default&${param}=${encodeURIComponent(text)}`, { headers: bearer(TOKENS.priv) });
const hour = (h: number): number => Date.UTC(2025, 0, 15, h) * 1000;

describe('LQL forms over HTTP', () => {
  it('chart:max over a nested field, per hour (long keywords)', async () => {
    // test/fixtures/edge.logs.prod.ndjson, project default: the largest origin_time in each hour.
    const r = await get('lql', 'from:edge_logs chart:max(m.response.origin_time) chart:group_by(t::h) t:today');
    expect(r.status).toBe(200);
    expect(((await r.json()) as { result: unknown[] }).result).toEqual([
      { timestamp: hour(7), count: 48 }, { timestamp: hour(8), count: 42 }, { timestamp: hour(9), count: 33 },
      { timestamp: hour(10), count: 24 }, { timestamp: hour(11), count: 15 },
    ]);
  });

  it('a bare name both a column and a record field is 400 ambiguous_name', async () => {
    // auth's metadata records carry their own `timestamp` (SAMPLE-EVENTS).
    const r = await get('sql', 'select timestamp from auth_logs cross join unnest(metadata) as m');
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('ambiguous_name');
  });
});
