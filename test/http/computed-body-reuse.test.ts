// Computed answers written from reused body memory (core/body-pool.ts) over a real server: logs.all with
// a rotated iso_timestamp_start gives the rows SQL says, byte-identical for the same parameters, however
// bodies of other sizes went before or ran alongside; a cached answer's bytes are never reused, nor the
// bytes of an answer a slow client has not read yet.

import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { bodyPoolStats } from '../../src/core/body-pool.ts';
import { bearer, startTestServer, TOKENS, type TestServer } from './helpers.ts';

const auth = { ...bearer(TOKENS.priv), 'Content-Type': 'application/json' };
const NOW = Date.now();
/** 300 edge events of project big, about 1.5 KB each, event i one second older than event i - 1 (so 100 rows are ~150 KB). */
const events = Array.from({ length: 300 }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  timestamp: new Date(NOW - 60_000 - i * 1000).toISOString(),
  event_message: `GET /rest/v1/row/${i} 200 ${'x'.repeat(1400 + (i % 7) * 13)}`,
  project: 'big',
  metadata: { request: { method: 'GET', path: `/rest/v1/row/${i}` }, response: { status_code: 200 } },
}));

type Row = { id: string; event_message: string };
let server: TestServer;
let close: () => Promise<void>;
const get = async (path: string): Promise<{ text: string; headers: Headers }> => {
  const r = await fetch(server.url + path, { headers: auth });
  expect(r.status).toBe(200);
  return { text: await r.text(), headers: r.headers };
};
/** logs.all of project big after `start` (exclusive, SPEC §4), or unbounded when null. */
const logsAll = (start: string | null): Promise<{ text: string; headers: Headers }> =>
  get(`/api/endpoints/query/logs.all?project=big${start === null ? '' : `&iso_timestamp_start=${encodeURIComponent(start)}`}`);
/** What logs.all must return: events newer than `start`, newest first, at most the default 100. */
const expected = (start: string | null): Row[] =>
  events.filter((e) => start === null || Date.parse(e.timestamp) > Date.parse(start)).slice(0, 100).map((e) => ({ id: e.id, event_message: e.event_message }));
const rowsOf = (text: string): Row[] => (JSON.parse(text) as { result: Row[] }).result.map((r) => ({ id: r.id, event_message: r.event_message }));

beforeAll(async () => {
  const service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, cache: { sweepMs: 0 } });
  server = await startTestServer(service, { maxBodyBytes: 4 * 1024 * 1024, maxDecompressedBytes: 8 * 1024 * 1024 });
  close = async () => { await server.close(); service.close(); };
  const r = await fetch(`${server.url}/api/logs?source_name=edge.logs.prod`, { method: 'POST', headers: auth, body: JSON.stringify(events) });
  expect(r.status).toBe(200);
});
afterAll(async () => close());

describe('computed logs.all from reused body memory', () => {
  it('gives the SQL rows, byte-identical per parameter value, whatever size of body went before', async () => {
    // Starts that keep 100, 80, 45 and 12 rows: each body reuses memory a larger or smaller one gave back.
    const starts = [null, '2020-01-01T00:00:00Z', events[80]!.timestamp, events[45]!.timestamp, events[12]!.timestamp];
    const first = new Map<string | null, string>();
    const reusedBefore = bodyPoolStats().reused;
    for (let round = 0; round < 6; round++) {
      for (const s of round % 2 ? [...starts].reverse() : starts) {
        const { text, headers } = await logsAll(s);
        expect(headers.get('x-cache')).toBe('MISS');
        expect(Number(headers.get('content-length'))).toBe(Buffer.byteLength(text));
        const want = expected(s);
        expect(headers.get('x-row-count')).toBe(String(want.length));
        expect(rowsOf(text)).toEqual(want);
        if (!first.has(s)) first.set(s, text);
        else expect(text).toBe(first.get(s));
      }
    }
    // Rotated microsecond starts (as the serving bench sends) all select the same 100 rows.
    for (let i = 1; i <= 20; i++) expect((await logsAll(`2020-01-01T00:00:00.${String(i).padStart(6, '0')}Z`)).text).toBe(first.get(null));
    expect(bodyPoolStats().reused).toBeGreaterThan(reusedBefore);
  });

  it('answers many requests in flight at once, each with its own rows', async () => {
    const starts = Array.from({ length: 24 }, (_, i) => events[10 + i * 5]!.timestamp);
    const answers = await Promise.all(starts.map((s) => logsAll(s)));
    answers.forEach((a, i) => expect(rowsOf(a.text)).toEqual(expected(starts[i]!)));
  });

  it('never reuses the memory of an answer the result cache keeps', async () => {
    // The same rows as logs.all's default, so its body is the size the computed answers would reuse.
    const def = { name: 'reuse.cached', query: 'select id, timestamp, event_message, metadata from `edge.logs.prod` where project = @project order by timestamp desc limit 100', max_limit: 1000, cache_duration_seconds: 300 };
    const created = await fetch(`${server.url}/api/endpoints`, { method: 'POST', headers: auth, body: JSON.stringify(def) });
    expect(created.status).toBeLessThan(300);
    const cached = await get('/api/endpoints/query/reuse.cached?project=big');
    expect(cached.headers.get('x-row-count')).toBe('100');
    // 90-99 rows: bodies a little smaller than the cached one, which would fit in its memory.
    for (let i = 0; i < 30; i++) await logsAll(events[90 + (i % 10)]!.timestamp);
    const again = await get('/api/endpoints/query/reuse.cached?project=big');
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(again.text).toBe(cached.text);
    expect(rowsOf(again.text)).toEqual(expected(null));
  });

  it('sends a slow client the bytes it was answered with while later answers reuse that memory', async () => {
    // Two computed endpoints whose bodies have the same length (the same 300 rows, in opposite orders).
    const sql = (dir: string): string => `select id, timestamp, event_message, metadata from \`edge.logs.prod\` where project = @project order by timestamp ${dir} limit 300`;
    for (const [name, dir] of [['reuse.desc', 'desc'], ['reuse.asc', 'asc']]) {
      const r = await fetch(`${server.url}/api/endpoints`, { method: 'POST', headers: auth, body: JSON.stringify({ name, query: sql(dir!), max_limit: 1000, cache_duration_seconds: 0 }) });
      expect(r.status).toBeLessThan(300);
    }
    const desc = (await get('/api/endpoints/query/reuse.desc?project=big')).text;
    const asc = (await get('/api/endpoints/query/reuse.asc?project=big')).text;
    expect(rowsOf(desc).map((r) => r.id)).toEqual(events.map((e) => e.id));
    expect(rowsOf(asc).map((r) => r.id)).toEqual(events.map((e) => e.id).reverse());
    expect(Buffer.byteLength(asc)).toBe(Buffer.byteLength(desc));

    // A client that reads one piece of the answer, then stops reading.
    const sock = net.connect(server.port, '127.0.0.1');
    const got: Buffer[] = [];
    const first = new Promise<void>((resolve) => sock.once('data', () => { sock.pause(); resolve(); }));
    sock.on('data', (b: Buffer) => got.push(b));
    const ended = new Promise<void>((resolve) => sock.on('end', resolve));
    sock.write(`GET /api/endpoints/query/reuse.desc?project=big HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKENS.priv}\r\nConnection: close\r\n\r\n`);
    await first;
    const readEarly = got.reduce((n, b) => n + b.length, 0);
    expect(readEarly).toBeLessThan(Buffer.byteLength(desc));
    // Meanwhile answers of the same length are written into the memory the slow answer was built in.
    const reusedBefore = bodyPoolStats().reused;
    for (let i = 0; i < 10; i++) expect((await get('/api/endpoints/query/reuse.asc?project=big')).text).toBe(asc);
    expect(bodyPoolStats().reused).toBeGreaterThanOrEqual(reusedBefore + 10);
    sock.resume();
    await ended;
    const whole = Buffer.concat(got);
    const head = whole.indexOf('\r\n\r\n');
    expect(whole.subarray(0, head).toString()).toMatch(/^HTTP\/1\.1 200 /);
    expect(whole.subarray(head + 4).toString()).toBe(desc);
  });
});
