// Ingest bodies lent to the transform thread (issue 16): a real server over loopback with the write-ahead
// log and the transform thread, bodies past 64 KiB sent in odd pieces (Content-Length) and chunked; the
// stored rows, the first bad event's index from the reference path, and a restart replaying the log.

import net from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { recoverStore } from '../../src/durable/durability.ts';
import { nowMicros } from '../../src/core/time.ts';
import { TransformThread } from '../../src/store/transform-thread.ts';
import { bearer, rawRequest, startTestServer, TOKENS } from '../http/helpers.ts';

const auth = bearer(TOKENS.priv);
let thread: TransformThread;
beforeAll(async () => { thread = await TransformThread.start(); });
afterAll(async () => { await thread.close(); });

async function durableServer(stateDir: string) {
  const store = new Store(defaultStoreConfig({}));
  const service = await createQueryService({ store, stateDir, cache: { sweepMs: 0 } });
  const recovered = recoverStore(store, stateDir, { fsync: 'always', fsyncMs: 100 }, { discardCorrupt: false, nowUs: nowMicros, log: () => {} });
  service.attachWal(recovered.wal, recovered.report);
  service.attachTransformer(thread);
  const server = await startTestServer(service, { maxBodyBytes: 1024 * 1024 });
  const rows = async (): Promise<string> => {
    // One row (a query answers at most 1000): every id in order, the messages' bytes, the times.
    const sql = "select string_agg(id, ',' order by id) as ids, sum(length(event_message)) as len, min(timestamp) as t0, max(timestamp) as t1, count(*) as n from edge_logs";
    const r = await rawRequest(server.port, { path: `/api/endpoints/query/logs.all?project=p&sql=${encodeURIComponent(sql)}&iso_timestamp_start=2000-01-01T00:00:00Z`, headers: auth });
    expect(r.status).toBe(200);
    return r.body;
  };
  const stop = async (): Promise<void> => { await server.close(); await recovered.wal.close(); service.close(); };
  return { server, rows, stop };
}

/** `n` events of ~130 bytes, ids `${tag}-0000`…, one second apart (n = 700: a body of ~90 KiB). */
function events(tag: string, n: number): Record<string, unknown>[] {
  const t0 = Date.now() - 3_600_000;
  return Array.from({ length: n }, (_, i) => ({ id: `${tag}-${String(i).padStart(4, '0')}`, project: 'p', event_message: `message ${i} ${'x'.repeat(i % 40)}`, timestamp: new Date(t0 + i * 1000).toISOString() }));
}

/** One request over its own connection, the body written in `pieces` with a pause between (uWS then hands them over as separate chunks). */
async function sendInPieces(port: number, head: string, pieces: Buffer[]): Promise<{ status: number; body: string }> {
  const sock = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => { sock.once('connect', resolve); sock.once('error', reject); });
  const got: Buffer[] = [];
  sock.on('data', (d: Buffer) => got.push(d));
  const ended = new Promise<void>((resolve) => sock.once('close', () => resolve()));
  sock.write(head);
  for (const p of pieces) {
    await new Promise((r) => setTimeout(r, 3));
    sock.write(p);
  }
  await ended;
  const text = Buffer.concat(got).toString('utf8');
  return { status: Number(text.slice(9, 12)), body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

/** `body` cut at `sizes` (repeated). */
function cut(body: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0, k = 0; at < body.length; k++) {
    const n = Math.min(sizes[k % sizes.length]!, body.length - at);
    out.push(body.subarray(at, at + n));
    at += n;
  }
  return out;
}

const path = '/api/logs?source_name=edge.logs.prod';
const headLines = `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.Authorization}\r\nContent-Type: application/json\r\nConnection: close\r\n`;

describe('bodies lent to the transform thread', () => {
  it('Content-Length bodies in odd pieces and chunked bodies are stored whole, a bad event is named by index, and a restart replays the same rows', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'ringql-lent-'));
    const a = await durableServer(stateDir);

    const one = Buffer.from(JSON.stringify({ batch: events('a', 700) }));
    expect(one.length).toBeGreaterThan(64 * 1024);
    const r1 = await sendInPieces(a.server.port, `${headLines}Content-Length: ${one.length}\r\n\r\n`, cut(one, [7, 4093, 65_537]));
    expect(r1).toEqual({ status: 200, body: '{"message":"Logged!"}' });

    // Chunked: each piece framed as one chunk, the last piece ending exactly at a chunk boundary.
    const two = Buffer.from(JSON.stringify(events('b', 650)));
    const framed = cut(two, [1, 8191, 30_001]).flatMap((p) => [Buffer.from(`${p.length.toString(16)}\r\n`), p, Buffer.from('\r\n')]);
    const r2 = await sendInPieces(a.server.port, `${headLines}Transfer-Encoding: chunked\r\n\r\n`, [...framed, Buffer.from('0\r\n\r\n')]);
    expect(r2).toEqual({ status: 200, body: '{"message":"Logged!"}' });

    // A bad timestamp at index 517: the byte path declines, and the reference path judges the body that came back.
    const bad = events('c', 700);
    bad[517]!.timestamp = 'not a time';
    const three = Buffer.from(JSON.stringify({ batch: bad }));
    const r3 = await sendInPieces(a.server.port, `${headLines}Content-Length: ${three.length}\r\n\r\n`, cut(three, [65_536]));
    expect(r3.status).toBe(400);
    const err = (JSON.parse(r3.body) as { error: { code: string; errors: { index: number }[] } }).error;
    expect(err.code).toBe('invalid_events');
    expect(err.errors[0]!.index).toBe(517);

    const before = await a.rows();
    const sent = [...events('a', 700), ...events('b', 650)];
    const got = (JSON.parse(before) as { result: { ids: string; len: number; n: number }[] }).result[0]!;
    expect(got.ids.split(',').sort().join(',') === sent.map((e) => e.id).join(',')).toBe(true);
    expect(got.n).toBe(1350);
    expect(got.len).toBe(sent.reduce((n, e) => n + String(e.event_message).length, 0));
    await a.stop();

    const b = await durableServer(stateDir);
    expect(await b.rows()).toBe(before);
    await b.stop();
  }, 30_000);
});
