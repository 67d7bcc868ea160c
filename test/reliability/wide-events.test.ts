// Wide events over real HTTP (issue 13 items 11 and 12): RINGQL_MAX_FIELDS_PER_SOURCE rejects a batch
// whole, a query over ~11,000 columns binds and answers, the schema route pages with a total count,
// and evicting the rows that carried wide keys shrinks the schema and what /health reports of it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { limitsFromEnv } from '../../src/core/limits.ts';
import { bearer, rawRequest, startTestServer, TOKENS, type TestServer } from '../http/helpers.ts';

const auth = bearer(TOKENS.priv);
const BOUND = 12_000;
let server: TestServer;
let service: Awaited<ReturnType<typeof createQueryService>>;

beforeAll(async () => {
  const env = { RINGQL_MAX_FIELDS_PER_SOURCE: String(BOUND), RINGQL_MAX_ROWS_PER_SOURCE: '100' };
  service = await createQueryService({ store: new Store(defaultStoreConfig(env)), stateDir: null });
  server = await startTestServer(service, { maxBodyBytes: 8 << 20, maxDecompressedBytes: 8 << 20 });
});
afterAll(async () => {
  await server.close();
  service.close();
});

const ago = (s: number) => new Date(Date.now() - s * 1000).toISOString();
const post = (source: string, events: unknown[]) =>
  rawRequest(server.port, { method: 'POST', path: `/api/logs?source_name=${source}`, headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify(events) });
const schema = async (source: string, qs = '') => {
  const r = await rawRequest(server.port, { path: `/api/sources/${source}/schema${qs}`, headers: auth });
  return { status: r.status, body: r.body, total: Number(r.headers['x-total-count']), fields: r.status === 200 ? (JSON.parse(r.body) as { path: string[] }[]) : [] };
};
const health = async () => JSON.parse((await rawRequest(server.port, { path: '/health' })).body) as { schema: Record<string, { fields: number; bytes: number }> };

function wide(tag: string, keys: number, secondsAgo: number): Record<string, unknown> {
  const o: Record<string, unknown> = { id: tag, project: 'p', timestamp: ago(secondsAgo), event_message: 'wide' };
  for (let k = 0; k < keys; k++) o[`${tag}_${k}`] = k;
  return o;
}

let endpoints = 0;
async function query(sql: string): Promise<{ status: number; body: string }> {
  const name = `wide.q${endpoints++}`;
  const c = await rawRequest(server.port, { method: 'POST', path: '/api/endpoints', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ name, query: sql, cache_duration_seconds: 0 }) });
  if (c.status !== 201) return c;
  return rawRequest(server.port, { path: `/api/endpoints/query/${name}`, headers: auth });
}

describe('wide events', () => {
  it('fill a source to near the bound; queries over ~11,000 columns bind and answer', async () => {
    const base = (await schema('edge.logs.prod')).total;
    const r = await post('edge.logs.prod', Array.from({ length: 11 }, (_, b) => wide(`k${b}`, 1000, 600 - b)));
    expect(r.status, r.body).toBe(200);
    expect((await schema('edge.logs.prod')).total).toBe(base + 11_000);
    const q = await query('select t.k10_999 as a, k0_5 as b, t.id from `edge.logs.prod` t where t.k7_7 = 7');
    expect(q.status, q.body).toBe(200);
    expect(JSON.parse(q.body).result).toEqual([{ a: null, b: null, id: 'k7' }]);
    const q2 = await query('select count(k3_3) as n, max(K10_999) as m from `edge.logs.prod`');
    expect(JSON.parse(q2.body).result).toEqual([{ n: 1, m: 999 }]);
  });

  it('an event past RINGQL_MAX_FIELDS_PER_SOURCE → 400 invalid_events naming it; nothing stored, schema unchanged', async () => {
    const before = await schema('edge.logs.prod', '?limit=10000&offset=2000');
    const count = await query('select count(*) as n from `edge.logs.prod`');
    const ok = { id: 'fine', project: 'p', timestamp: ago(5), event_message: 'm' };
    const r = await post('edge.logs.prod', [ok, wide('x', 1500, 5)]);
    expect(r.status).toBe(400);
    const err = JSON.parse(r.body).error;
    expect(err.code).toBe('invalid_events');
    expect(err.errors).toHaveLength(1);
    expect(err.errors[0].index).toBe(1);
    expect(err.errors[0].message).toContain(`${BOUND} distinct field paths`);
    expect(err.errors[0].message).toContain('RINGQL_MAX_FIELDS_PER_SOURCE');
    expect(await schema('edge.logs.prod', '?limit=10000&offset=2000')).toEqual(before);
    expect((await query('select count(*) as n from `edge.logs.prod`')).body).toBe(count.body);
  });

  it('the schema route pages: default 1,000 fields, ?limit=&offset=, X-Total-Count; bad values are 400', async () => {
    const all = await schema('edge.logs.prod', '?limit=10000');
    expect(all.fields).toHaveLength(10_000);
    const first = await schema('edge.logs.prod');
    expect(first.fields).toEqual(all.fields.slice(0, 1000));
    expect(first.total).toBeGreaterThan(11_000);
    const page = await schema('edge.logs.prod', '?offset=5&limit=10');
    expect(page.fields).toEqual(all.fields.slice(5, 15));
    expect((await schema('edge.logs.prod', `?offset=${first.total}`)).fields).toEqual([]);
    for (const bad of ['?limit=0', '?limit=10001', '?offset=-1', '?limit=abc']) {
      const r = await schema('edge.logs.prod', bad);
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body).error.code).toBe('invalid_parameter');
    }
    // A source with fewer fields than a page answers exactly as before: the whole list.
    const small = await schema('auth.logs.prod');
    expect(small.fields.length).toBeLessThan(1000);
    expect(small.total).toBe(small.fields.length);
    expect(small.body).toBe((await schema('auth.logs.prod', '?limit=10000')).body);
  });

  it('evicting the rows that carried the wide keys forgets them: the schema and /health shrink', async () => {
    const wideFields = (await health()).schema['edge.logs.prod']!;
    expect(wideFields.fields).toBeGreaterThan(11_000);
    const normal = Array.from({ length: 120 }, (_, i) => ({ id: `n${i}`, project: 'p', timestamp: ago(10 - i / 100), event_message: 'm', metadata: { request: { path: '/x' } } }));
    expect((await post('edge.logs.prod', normal)).status).toBe(200);
    const after = await schema('edge.logs.prod');
    expect(after.total).toBeLessThan(1000);
    expect(after.fields.some((f) => /^k\d+_/.test(f.path[0]!))).toBe(false);
    const h = (await health()).schema['edge.logs.prod']!;
    expect(h.fields).toBe(after.total);
    expect(h.bytes).toBeLessThan(wideFields.bytes / 10);
    // The columns are gone for queries too, and the bound has room again.
    expect((await query('select k0_5 from `edge.logs.prod`')).status).toBe(400);
    expect((await post('edge.logs.prod', [wide('y', 1500, 1)])).status).toBe(200);
  });
});

describe('RINGQL_MAX_FIELDS_PER_SOURCE', () => {
  it('is read and validated with the other limits (a bad value stops the start, naming it)', () => {
    expect(limitsFromEnv({}).maxFieldsPerSource).toBe(10_000);
    expect(defaultStoreConfig({ RINGQL_MAX_FIELDS_PER_SOURCE: '500' }).maxFieldsPerSource).toBe(500);
    for (const bad of ['0', '15', '-3', 'many', '1.5']) expect(() => defaultStoreConfig({ RINGQL_MAX_FIELDS_PER_SOURCE: bad })).toThrow(/RINGQL_MAX_FIELDS_PER_SOURCE/);
  });
});
