// A computed request is routed, decoded and authorised once (issue 18): the hit check hands what it
// learned to dispatch(), and remembers a URL only once a cache answered it. Over a real server: the query
// string is decoded once per computed request, and rotated values, bad parameters, tokens, redaction and
// the legacy route answer as SPEC §3/§6 say.

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { bearer, startTestServer, TOKENS, type TestServer } from './helpers.ts';

const decoded = vi.hoisted(() => ({ calls: 0 }));
vi.mock('../../src/http/form-params.ts', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../../src/http/form-params.ts')>();
  return {
    ...orig,
    parseFormQuery: (q: string) => {
      decoded.calls++;
      return orig.parseFormQuery(q);
    },
  };
});

const NOW = Date.now();
/** 150 edge events of project p, event i one second older than event i - 1; every third names a client IPv4 address. */
const events = Array.from({ length: 150 }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  timestamp: new Date(NOW - 60_000 - i * 1000).toISOString(),
  event_message: i % 3 === 0 ? `GET /row/${i} from 10.0.${i % 256}.7` : `GET /row/${i}`,
  project: 'p',
  metadata: { response: { status_code: 200 } },
}));

let server: TestServer;
let close: () => Promise<void>;
type Answer = { status: number; body: string; headers: Headers };
const get = async (path: string, headers: Record<string, string> = bearer(TOKENS.query)): Promise<Answer> => {
  const r = await fetch(server.url + path, { headers });
  return { status: r.status, body: await r.text(), headers: r.headers };
};
const logsAll = (start: string, extra = ''): string => `/api/endpoints/query/logs.all?project=p&iso_timestamp_start=${encodeURIComponent(start)}${extra}`;
/** SPEC §4: rows newer than the (exclusive) start, newest first, the default 100 at most. */
const expectedIds = (start: string): string[] => events.filter((e) => Date.parse(e.timestamp) > Date.parse(start)).slice(0, 100).map((e) => e.id);
const rows = (a: Answer): { id: string; event_message: string }[] => (JSON.parse(a.body) as { result: { id: string; event_message: string }[] }).result;
const errorOf = (a: Answer): { code: string; param?: string } => (JSON.parse(a.body) as { error: { code: string; param?: string } }).error;

beforeAll(async () => {
  const service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, cache: { sweepMs: 0 } });
  server = await startTestServer(service, { maxBodyBytes: 1024 * 1024 });
  close = async () => { await server.close(); service.close(); };
  const r = await fetch(`${server.url}/api/logs?source_name=edge.logs.prod`, { method: 'POST', headers: { ...bearer(TOKENS.priv), 'Content-Type': 'application/json' }, body: JSON.stringify(events) });
  expect(r.status).toBe(200);
  const created = await fetch(`${server.url}/api/endpoints`, {
    method: 'POST', headers: { ...bearer(TOKENS.priv), 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'cached.count', query: 'select count(*) as n from `edge.logs.prod` where project = @project', cache_duration_seconds: 300 }),
  });
  expect(created.status).toBe(201);
});
afterAll(async () => close());

describe('a computed request checked once', () => {
  it('decodes the query string once per computed request (the hit check did it, dispatch() does not again)', async () => {
    const before = decoded.calls;
    for (let i = 0; i < 20; i++) expect((await get(logsAll(`2020-01-01T00:00:00.${String(i).padStart(6, '0')}Z`))).status).toBe(200);
    expect(decoded.calls - before).toBe(20);
  });

  it('still remembers a URL a cache answers: after the first hit, hits decode nothing', async () => {
    const url = '/api/endpoints/query/cached.count?project=p';
    const answers: Answer[] = [];
    const before = decoded.calls;
    for (let i = 0; i < 6; i++) answers.push(await get(url));
    expect(answers.map((a) => a.headers.get('x-cache'))).toEqual(['MISS', 'HIT', 'HIT', 'HIT', 'HIT', 'HIT']);
    for (const a of answers) expect(rows(a as Answer) as unknown).toEqual([{ n: 150 }]);
    // The miss and the first hit decode it; the four hits after them take the remembered URL.
    expect(decoded.calls - before).toBe(2);
  });

  it('answers many rotated values with the rows SPEC §4 gives, each from its own value', async () => {
    for (let i = 0; i < 40; i++) {
      const start = new Date(NOW - 60_000 - (i * 7 % 150) * 1000 - 500).toISOString();
      const a = await get(logsAll(start));
      expect(a.status).toBe(200);
      expect(a.headers.get('x-cache')).toBe('MISS');
      expect(rows(a).map((r) => r.id)).toEqual(expectedIds(start));
      expect(a.headers.get('x-row-count')).toBe(String(expectedIds(start).length));
    }
  });

  it('answers bad parameters, bad encoding and tokens as before: 400, 401, 403', async () => {
    const bad = await get(logsAll('not a time'));
    expect(bad.status).toBe(400);
    expect(errorOf(bad)).toMatchObject({ code: 'invalid_parameter', param: 'iso_timestamp_start' });
    const enc = await get('/api/endpoints/query/logs.all?project=p&iso_timestamp_start=%E0%A4%A');
    expect(enc.status).toBe(400);
    expect(errorOf(enc).code).toBe('invalid_parameter');
    const missing = await get('/api/endpoints/query/logs.all?iso_timestamp_start=2020-01-01T00:00:00Z');
    expect(missing.status).toBe(400);
    expect(errorOf(missing).code).toBe('missing_parameter');
    expect((await get(logsAll('2020-01-01T00:00:00.000001Z'), {})).status).toBe(401);
    expect((await get(logsAll('2020-01-01T00:00:00.000002Z'), bearer('no-such-token'))).status).toBe(401);
    expect((await get(logsAll('2020-01-01T00:00:00.000003Z'), bearer(TOKENS.ingest))).status).toBe(403);
    // The query parameter api_key is read last (SPEC "Authentication"): alone it authorises, an unknown one does not.
    expect((await get(logsAll('2020-01-01T00:00:00.000004Z', `&api_key=${TOKENS.query}`), {})).status).toBe(200);
    const unknown = await get(logsAll('2020-01-01T00:00:00.000005Z', '&api_key=nope'), {});
    expect([unknown.status, errorOf(unknown).code]).toEqual([401, 'unauthorized']);
    expect((await get(logsAll('2020-01-01T00:00:00.000006Z', `&api_key=${TOKENS.ingest}`), {})).status).toBe(403);
  });

  it('redacts a computed answer that asks for it, and only that one (SPEC §6)', async () => {
    for (let i = 0; i < 10; i++) {
      const start = `2020-01-0${1 + (i % 9)}T00:00:00Z`;
      const plain = rows(await get(logsAll(start)));
      const red = rows(await get(logsAll(start), { ...bearer(TOKENS.query), 'LF-ENDPOINT-REDACT-PII': 'true' }));
      expect(plain.map((r) => r.event_message)).toEqual(events.slice(0, 100).map((e) => e.event_message));
      expect(red.map((r) => r.event_message)).toEqual(events.slice(0, 100).map((e) => e.event_message.replace(/10\.0\.\d+\.7/, 'REDACTED')));
    }
  });

  it('takes the legacy by-name route with its ignored parameters as before', async () => {
    const a = await get('/api/endpoints/query/name/logs.all?project=p&ref=x&project_tier=free&iso_timestamp_start=2020-01-01T00:00:00.000009Z');
    expect(a.status).toBe(200);
    expect(rows(a).map((r) => r.id)).toEqual(expectedIds('2020-01-01T00:00:00Z'));
  });
});
