// Redaction by construction (SPEC §6, §11): with the header or an endpoint's redact_pii, error messages
// and details quoting a row, and response headers, come back redacted; a repeated header redacts if any copy says true.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { bearer, fakeService, rawRequest, startTestServer, TOKENS, type FakeService, type TestServer } from './helpers.ts';

const ADDRESS = '10.1.2.3';
const auth = bearer(TOKENS.priv);
const ON = { 'LF-ENDPOINT-REDACT-PII': 'true' };
let server: TestServer;
let service: Awaited<ReturnType<typeof createQueryService>>;

beforeAll(async () => {
  service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null });
  const ts = new Date(Date.now() - 5000).toISOString();
  service.ingest('edge.logs.prod', [{ id: 'a', timestamp: ts, project: 'p', event_message: `client ${ADDRESS} said (hi`, metadata: {} }]);
  server = await startTestServer(service);
  const created = await rawRequest(server.port, {
    method: 'POST', path: '/api/endpoints', headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'redacting.regex', query: 'select regexp_contains(event_message, @pattern) as r from `edge.logs.prod`', redact_pii: true, cache_duration_seconds: 0 }),
  });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await server.close();
  service.close();
});

const sandbox = (sql: string, headers: Record<string, string | string[]> = {}) =>
  rawRequest(server.port, { path: `/api/endpoints/query/logs.all?project=p&sql=${encodeURIComponent(sql)}`, headers: { ...auth, ...headers } });

// Errors never quote row values (src/fn/cast.ts, src/core/regex.ts); what they may quote is the caller's
// own text — a regex literal, a parameter value — and that is where an address can still appear.
const FAILING = {
  'a bad regex literal': `select regexp_contains(event_message, '${ADDRESS}(') as r from edge_logs`,
  'a bad regex in a subquery literal': `select (select regexp_extract('x', '(${ADDRESS})(')) as r`,
};
const ROW_VALUE_ERRORS = {
  'a failed CAST': 'select cast(event_message as int64) as n from edge_logs',
  'a bad TIMESTAMP string': 'select timestamp(event_message) as t from edge_logs',
  'a bad regex built from a row value': "select regexp_contains('x', event_message) as r from edge_logs",
};

describe('error bodies of a redacted request', () => {
  for (const [what, sql] of Object.entries(ROW_VALUE_ERRORS)) {
    it(`${what}: the row value is never quoted, redacted or not`, async () => {
      for (const headers of [{}, ON]) {
        const r = await sandbox(sql, headers);
        expect(r.status).toBe(400);
        expect(JSON.parse(r.body).error.code).toBe('query_error');
        expect(r.body).not.toContain(ADDRESS);
      }
    });
  }

  it('a bad timestamp parameter value is quoted, and REDACTED with the header', async () => {
    const path = `/api/endpoints/query/logs.all?project=p&iso_timestamp_start=${ADDRESS}`;
    const plain = await rawRequest(server.port, { path, headers: auth });
    expect(plain.status).toBe(400);
    expect(plain.body).toContain(ADDRESS);
    const redacted = await rawRequest(server.port, { path, headers: { ...auth, ...ON } });
    expect(redacted.status).toBe(400);
    expect(redacted.body).not.toContain(ADDRESS);
    expect(redacted.body).toContain('REDACTED');
  });

  for (const [what, sql] of Object.entries(FAILING)) {
    it(`${what}: the address is quoted without redaction and REDACTED with the header`, async () => {
      const plain = await sandbox(sql);
      expect(plain.status).toBe(400);
      expect(plain.body).toContain(ADDRESS);
      const redacted = await sandbox(sql, ON);
      expect(redacted.status).toBe(400);
      expect(JSON.parse(redacted.body).error.code).toBe('query_error');
      expect(redacted.body).not.toContain(ADDRESS);
      expect(redacted.body).toContain('REDACTED');
    });
  }

  it('an endpoint with redact_pii redacts its errors with no header at all, by name and by id', async () => {
    const q = `?pattern=${encodeURIComponent(`${ADDRESS}(`)}`;
    const r = await rawRequest(server.port, { path: `/api/endpoints/query/redacting.regex${q}`, headers: auth });
    expect(r.status).toBe(400);
    expect(r.body).not.toContain(ADDRESS);
    expect(r.body).toContain('REDACTED');
    const id = (JSON.parse((await rawRequest(server.port, { path: '/api/endpoints/redacting.regex', headers: auth })).body) as { id: string }).id;
    const byId = await rawRequest(server.port, { path: `/api/endpoints/query/${id}${q}`, headers: { ...auth, 'LF-ENDPOINT-REDACT-PII': 'false' } });
    expect(byId.status).toBe(400);
    expect(byId.body).not.toContain(ADDRESS);
  });

  it('details are redacted too (the bad pattern is echoed under "pattern")', async () => {
    const plain = await sandbox(FAILING['a bad regex literal']);
    expect(JSON.parse(plain.body).error.pattern).toBe(`${ADDRESS}(`);
    const r = await sandbox(FAILING['a bad regex literal'], ON);
    expect(JSON.parse(r.body).error.pattern).toBe('REDACTED(');
  });
});

describe('a repeated LF-ENDPOINT-REDACT-PII header: the most restrictive copy wins', () => {
  for (const copies of [['false', 'true'], ['true', 'false'], ['TRUE', 'no']]) {
    it(`${copies.join(' then ')} redacts`, async () => {
      const r = await sandbox(FAILING['a bad regex literal'], { 'LF-ENDPOINT-REDACT-PII': copies });
      expect(r.status).toBe(400);
      expect(r.body).not.toContain(ADDRESS);
      expect(r.body).toContain('REDACTED');
    });
  }

  it('false twice does not redact', async () => {
    const r = await sandbox(FAILING['a bad regex literal'], { 'LF-ENDPOINT-REDACT-PII': ['false', 'false'] });
    expect(r.body).toContain(ADDRESS);
  });

  it('successful rows are redacted whichever copy says true', async () => {
    const r = await sandbox('select event_message from edge_logs', { 'LF-ENDPOINT-REDACT-PII': ['false', 'true'] });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ result: [{ event_message: 'client REDACTED said (hi' }] });
  });
});

describe('headers and unflagged bodies of a redacted request (fake service)', () => {
  let fake: FakeService;
  let fakeServer: TestServer;
  beforeAll(async () => {
    fake = fakeService();
    fake.runResponse = {
      ...fake.runResponse, body: Buffer.from(`{"result":[{"ip":"${ADDRESS}"}]}`),
      timings: [{ name: `scan-${ADDRESS}`, ms: 1 }],
    };
    fakeServer = await startTestServer(fake, { corsOrigin: 'http://10.0.0.5:3000' });
  });
  afterAll(() => fakeServer.close());

  it('every reply header value is redacted, and a body not flagged as redacted is scanned', async () => {
    const plain = await rawRequest(fakeServer.port, { path: '/api/endpoints/query/fake.one', headers: auth });
    expect(plain.headers['server-timing']).toContain(ADDRESS);
    expect(plain.body).toContain(ADDRESS);
    const r = await rawRequest(fakeServer.port, { path: '/api/endpoints/query/fake.one', headers: { ...auth, ...ON } });
    expect(r.headers['server-timing']).toBe('scan-REDACTED;dur=1');
    expect(JSON.parse(r.body)).toEqual({ result: [{ ip: 'REDACTED' }] });
    // The configured CORS origin is the operator's, not request data: it stays intact.
    expect(r.headers['access-control-allow-origin']).toBe('http://10.0.0.5:3000');
  });

  it("the service's redacting endpoint (endpointRedacts) turns it on without the header", async () => {
    const r = await rawRequest(fakeServer.port, { path: '/api/endpoints/query/redacting', headers: auth });
    expect(JSON.parse(r.body)).toEqual({ result: [{ ip: 'REDACTED' }] });
  });

  it('a body the service marks as already redacted is sent as it is (no second scan)', async () => {
    fake.runResponse = { ...fake.runResponse, redacted: true };
    const r = await rawRequest(fakeServer.port, { path: '/api/endpoints/query/fake.one', headers: { ...auth, ...ON } });
    expect(r.body).toContain(ADDRESS);
  });
});
