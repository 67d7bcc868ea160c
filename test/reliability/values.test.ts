// Values over real HTTP (issue 13 item 8): the largest timestamp round-trips, ns/µs epoch numbers keep
// exact microseconds, out-of-range timestamps are rejected with their index, and `__proto__`-like keys
// are stored as data and read back.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { bearer, rawRequest, startTestServer, TOKENS, type TestServer } from '../http/helpers.ts';

const auth = bearer(TOKENS.priv);
let server: TestServer;
let service: Awaited<ReturnType<typeof createQueryService>>;

beforeAll(async () => {
  service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null });
  server = await startTestServer(service);
});
afterAll(async () => {
  await server.close();
  service.close();
});

const postText = (source: string, text: string, type = 'application/json') =>
  rawRequest(server.port, { method: 'POST', path: `/api/logs?source_name=${source}`, headers: { ...auth, 'Content-Type': type }, body: text });

const SRC = '`edge.logs.prod`';
let endpoints = 0;
/** Saves `sql` (over the sources themselves) as a new endpoint and runs it. */
async function query(sql: string): Promise<Record<string, unknown>[]> {
  return (JSON.parse(await queryText(sql)) as { result: Record<string, unknown>[] }).result;
}

/** The same, as the body's text (JSON numbers past 2^53 cannot be compared once parsed). */
async function queryText(sql: string): Promise<string> {
  const name = `values.q${endpoints++}`;
  const c = await rawRequest(server.port, { method: 'POST', path: '/api/endpoints', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ name, query: sql, cache_duration_seconds: 0 }) });
  expect(c.status, c.body).toBe(201);
  const r = await rawRequest(server.port, { path: `/api/endpoints/query/${name}`, headers: auth });
  expect(r.status, r.body).toBe(200);
  return r.body;
}

describe('timestamps at the edge of the range', () => {
  it('9999-12-31 23:59:59.999999 reads back as itself everywhere, never as year 10000', async () => {
    const ev = { id: 'max', project: 'pmax', timestamp: '9999-12-31T23:59:59.999999Z', event_message: 'm' };
    expect((await postText('edge.logs.prod', JSON.stringify([ev]))).status).toBe(200);
    const rows = await query(
      `select t.timestamp as ts, cast(t.timestamp as string) as s, format_timestamp('%Y-%m-%d %H:%M:%E6S', t.timestamp) as f,
         datetime(t.timestamp) as d, timestamp_trunc(t.timestamp, day) as day from ${SRC} t where t.id = 'max'`);
    expect(rows).toHaveLength(1);
    const r = rows[0]!;
    expect(String(r.s)).toMatch(/^9999-12-31 23:59:59\.999999/);
    expect(r.f).toBe('9999-12-31 23:59:59.999999');
    expect(String(r.d)).toBe('9999-12-31T23:59:59.999999');
    expect(r.day).toBe(253402214400000000);
    const all = await query(`select * from ${SRC} t where t.id = 'max'`);
    expect(all).toHaveLength(1);
    // As a computed TIMESTAMP column and as a stored row, the digits are the maximum's own.
    expect(await queryText(`select t.timestamp as ts from ${SRC} t where t.id = 'max'`)).toBe('{"result":[{"ts":253402300799999999}]}');
    expect(await queryText(`select * from ${SRC} t where t.id = 'max'`)).toContain('"timestamp":253402300799999999');
  });

  it('timestamps past 9999-12-31 are rejected as invalid_events with the index', async () => {
    const ok = { id: 'ok', project: 'p', timestamp: '2024-01-01T00:00:00Z' };
    for (const bad of ['9999-12-31T23:59:59.999999-00:01', '10000-01-01T00:00:00Z', '0000-12-31T00:00:00Z']) {
      const r = await postText('edge.logs.prod', JSON.stringify([ok, { ...ok, id: 'bad', timestamp: bad }]));
      expect(r.status).toBe(400);
      const err = JSON.parse(r.body).error;
      expect(err.code).toBe('invalid_events');
      expect(err.errors[0].index).toBe(1);
    }
  });
});

describe('epoch numbers keep exact microseconds', () => {
  it('19-digit ns in an array, a batch, one object and NDJSON; 16-digit µs', async () => {
    // Within retention (about an hour ago), a second where these ns digits as a double floor to the wrong µs.
    let s0 = Math.floor(Date.now() / 1000) - 3600;
    while (['123456999', '654321999', '777777999'].some((f) => Math.floor(Number(`${s0}${f}`) / 1000) === Number(`${s0}${f.slice(0, 6)}`))) s0--;
    const sec = String(s0);
    const ev = (id: string, ts: string) => `{"id":"${id}","project":"pns","timestamp":${ts},"metadata":{"timestamp":1700000000999999999}}`;
    expect((await postText('edge.logs.prod', `[${ev('a1', sec + '123456999')},${ev('a2', sec + '123456001')}]`)).status).toBe(200);
    expect((await postText('edge.logs.prod', `{"batch":[${ev('b1', sec + '654321999')}]}`)).status).toBe(200);
    expect((await postText('edge.logs.prod', ev('o1', sec + '000000999'))).status).toBe(200);
    expect((await postText('edge.logs.prod', `${ev('n1', sec + '777777999')}\n${ev('n2', sec + '250001')}\n`, 'application/x-ndjson')).status).toBe(200);
    const rows = await query(`select t.id, t.timestamp as ts, format_timestamp('%E6S', t.timestamp) as f from ${SRC} t where t.project = 'pns' order by t.id`);
    expect(rows.map((r) => [r.id, String(r.ts), r.f])).toEqual([
      ['a1', sec + '123456', expect.stringMatching(/\.123456$/)], ['a2', sec + '123456', expect.stringMatching(/\.123456$/)],
      ['b1', sec + '654321', expect.stringMatching(/\.654321$/)], ['n1', sec + '777777', expect.stringMatching(/\.777777$/)],
      ['n2', sec + '250001', expect.stringMatching(/\.250001$/)], ['o1', sec + '000000', expect.stringMatching(/^\d\d\.000000$/)],
    ]);
  });
});

describe('keys that name Object.prototype members', () => {
  it('__proto__, constructor and toString are stored as data and read back, top level and nested', async () => {
    const text = `{"id":"proto","project":"pp","timestamp":"${new Date(Date.now() - 60_000).toISOString()}","__proto__":{"y":2},"constructor":"c","toString":"t",` +
      '"metadata":{"__proto__":{"x":1},"constructor":{"prototype":3},"hasOwnProperty":"h"}}';
    expect((await postText('edge.logs.prod', text)).status).toBe(200);
    const rows = await query(`select to_json_string(t.metadata) as md, t.toString as ts, t.constructor as c from ${SRC} t where t.id = 'proto'`);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(String(rows[0]!.md))).toEqual(JSON.parse('[{"__proto__":[{"x":1}],"constructor":[{"prototype":3}],"hasOwnProperty":"h"}]'));
    expect(rows[0]!.ts).toBe('t');
    expect(rows[0]!.c).toBe('c');
    const star = await query(`select * from ${SRC} t where t.id = 'proto'`);
    expect(JSON.stringify(star[0])).toContain('"__proto__":[{"x":1}]');
    const schema = JSON.parse((await rawRequest(server.port, { path: '/api/sources/edge.logs.prod/schema', headers: auth })).body) as { path: string[] }[];
    const paths = schema.map((f) => f.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['__proto__', '__proto__.y', 'metadata.__proto__', 'metadata.__proto__.x', 'metadata.constructor.prototype', 'toString']));
  });

  it('an event without such keys reads NULL for them, never Object.prototype members; a STRUCT field __proto__ is kept', async () => {
    const t = new Date(Date.now() - 60_000).toISOString();
    const text = `[{"id":"own","project":"pp","timestamp":"${t}","constructor":"c","metadata":{"__proto__":{"x":1},"constructor":"mc"}},` +
      `{"id":"plain","project":"pp","timestamp":"${t}","metadata":{"r":1}}]`;
    expect((await postText('edge.logs.prod', text)).status).toBe(200);
    const rows = await query(`select t.id, t.constructor as c, m.constructor as mc, m.toString as ts, m.valueOf as v from ${SRC} t cross join unnest(t.metadata) m where t.id in ('own', 'plain') order by t.id`);
    expect(rows).toEqual([{ id: 'own', c: 'c', mc: 'mc', ts: null, v: null }, { id: 'plain', c: null, mc: null, ts: null, v: null }]);
    // Typed as the STRING it holds, not as Object.prototype.constructor.
    expect(await query(`select t.id, upper(t.constructor) as u from ${SRC} t where t.constructor = 'c' order by t.id`)).toEqual([{ id: 'own', u: 'C' }, { id: 'proto', u: 'C' }]);
    const un = await query(`select t.id, p.x from ${SRC} t cross join unnest(t.metadata) m cross join unnest(m.\`__proto__\`) p where t.id in ('own', 'plain')`);
    expect(un).toEqual([{ id: 'own', x: 1 }]);
    expect(await query('select struct(1 as constructor, 2 as `__proto__`) as s')).toEqual([JSON.parse('{"s":{"constructor":1,"__proto__":2}}')]);
  });
});
