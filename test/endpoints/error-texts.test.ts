// Error messages never quote row values (issue 13 item 1): a failed CAST, an invalid TIMESTAMP or
// DATETIME string and an invalid regex taken from a row say what failed over real HTTP without the
// value; a regex literal from the query text is still quoted, being the caller's own text.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { castValue } from '../../src/fn/cast.ts';
import { RingqlError } from '../../src/core/errors.ts';
import { bearer, startTestServer, TOKENS, type TestServer } from '../http/helpers.ts';

const auth = { ...bearer(TOKENS.priv), 'Content-Type': 'application/json' };
const SECRET = 'peer 10.9.8.7 said (x';
let server: TestServer;
let closeService: () => void;

beforeAll(async () => {
  const service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null });
  closeService = () => service.close();
  server = await startTestServer(service);
  const r = await fetch(`${server.url}/api/logs?source_name=edge.logs.prod`, {
    method: 'POST', headers: auth, body: JSON.stringify({ project: 'p', event_message: SECRET, pattern: '(a)(b)' }),
  });
  expect(r.status).toBe(200);
});
afterAll(async () => {
  await server.close();
  closeService();
});

let n = 0;
/** Creates an endpoint for `query` and runs it once; returns status and parsed error body. */
async function runOnce(query: string): Promise<{ status: number; text: string; error: { code: string; message: string } }> {
  const name = `err.${++n}`;
  const c = await fetch(`${server.url}/api/endpoints`, { method: 'POST', headers: auth, body: JSON.stringify({ name, query, cache_duration_seconds: 0 }) });
  expect(c.status).toBe(201);
  const r = await fetch(`${server.url}/api/endpoints/query/${name}`, { headers: auth });
  const text = await r.text();
  return { status: r.status, text, error: (JSON.parse(text) as { error: { code: string; message: string } }).error };
}

const FROM = 'from `edge.logs.prod`';

describe('errors from row values', () => {
  it('a failed CAST names the types and SAFE_CAST, not the value', async () => {
    const r = await runOnce(`select cast(event_message as int64) as n ${FROM}`);
    expect(r.status).toBe(400);
    expect(r.error.code).toBe('query_error');
    expect(r.error.message).toMatch(/^Cannot cast a STRING value to INT64 \(.*\); use SAFE_CAST to get NULL instead/);
    expect(r.text).not.toContain('10.9.8.7');
    expect(r.text).not.toContain('peer');
  });

  it('an invalid TIMESTAMP or DATETIME string is named by type, not quoted', async () => {
    for (const fn of ['timestamp', 'datetime']) {
      const r = await runOnce(`select ${fn}(event_message) as t ${FROM}`);
      expect(r.status).toBe(400);
      expect(r.error.code).toBe('query_error');
      expect(r.error.message).toMatch(new RegExp(`^Invalid ${fn.toUpperCase()} string`));
      expect(r.text).not.toContain('10.9.8.7');
    }
  });

  it('an invalid regex taken from a row says why, without the pattern or RE2\'s fragment of it', async () => {
    const r = await runOnce(`select regexp_contains('abc', event_message) as m ${FROM}`);
    expect(r.status).toBe(400);
    expect(r.error.code).toBe('query_error');
    expect(r.error.message).toMatch(/^Invalid regular expression taken from a row value: missing \)/);
    expect(r.text).not.toContain('10.9.8.7');
    expect(r.text).not.toContain('(x');
    expect(Object.keys(r.error).sort()).toEqual(['code', 'message']);
  });

  it('a row pattern with two groups in an extraction is refused without quoting it', async () => {
    const r = await runOnce(`select regexp_extract('ab', pattern) as m ${FROM}`);
    expect(r.status).toBe(400);
    expect(r.error.message).toMatch(/more than 1 capturing group; this one has 2/);
    expect(r.text).not.toContain('(a)(b)');
  });
});

describe('errors from the query text', () => {
  it('an invalid regex literal is still quoted: it is the caller\'s own text', async () => {
    const c = await fetch(`${server.url}/api/endpoints`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'err.literal', query: `select regexp_contains(event_message, '(lit') as m ${FROM}` }) });
    expect(c.status).toBe(400);
    const body = (await c.json()) as { error: { code: string; message: string; pattern: string } };
    expect(body.error.code).toBe('query_error');
    expect(body.error.message).toContain('Invalid regular expression "(lit"');
    expect(body.error.pattern).toBe('(lit');
  });
});

describe('castValue', () => {
  it('names the value\'s own type when the static type is unknown (ANY)', () => {
    const cases: [unknown, string][] = [['10.0.0.1', 'STRING'], [1.5, 'FLOAT64'], [true, 'BOOL'], [[1], 'ARRAY'], [{ a: 1 }, 'STRUCT']];
    for (const [v, type] of cases) {
      let err: unknown;
      try { castValue(v as never, 'ANY', 'TIMESTAMP', false); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(RingqlError);
      expect((err as RingqlError).message).toMatch(new RegExp(`^Cannot cast a ${type} value to TIMESTAMP`));
      expect((err as RingqlError).message).not.toContain('10.0.0.1');
    }
  });
});
