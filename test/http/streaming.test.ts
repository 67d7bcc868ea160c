// Issue 18 item 3 over a real server: a large uncached result is streamed in chunks (JSON byte-identical
// to the whole body a cached run builds; NDJSON and CSV give the same rows), the run waits while a client
// does not read, and a client that disconnects mid-stream stops the query and gives its slot back.

import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { streamCounters } from '../../src/http/response-stream.ts';
import { STREAM_START_BYTES } from '../../src/exec/body-stream.ts';
import { bearer, startTestServer, TOKENS, type TestServer } from './helpers.ts';

const ROWS = 10_000;
const PAD = 1000;
// 10 000 rows of ~1 KB: about 10 MB, several times the size past which a body is streamed.
const QUERY = `select id, event_message, length(event_message) as len from \`edge.logs.prod\` order by id`;

let server: TestServer;
let service: Awaited<ReturnType<typeof createQueryService>>;

beforeAll(async () => {
  service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, cache: { sweepMs: 0 } });
  const ts = new Date(Date.now() - 60_000).toISOString();
  const events = Array.from({ length: ROWS }, (_, i) => ({ id: `r${String(i).padStart(5, '0')}`, timestamp: ts, event_message: `${i} from 10.1.2.3 ` + 'x'.repeat(PAD) }));
  for (let i = 0; i < ROWS; i += 2000) service.ingest('edge.logs.prod', events.slice(i, i + 2000));
  await service.createEndpoint({ name: 'big.streamed', query: QUERY, max_limit: 10_000, cache_duration_seconds: 0 });
  await service.createEndpoint({ name: 'big.whole', query: QUERY, max_limit: 10_000, cache_duration_seconds: 60, proactive_requerying_seconds: 0 });
  server = await startTestServer(service);
});
afterAll(async () => {
  await server.close();
  service.close();
});

interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(path: string, headers: Record<string, string> = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: server.port, path, headers: { ...bearer(TOKENS.priv), ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

async function until(what: string, cond: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

type Row = { id: string; event_message: string; len: number };

describe('streamed answers', () => {
  it('JSON streamed in chunks is byte-identical to the whole body', async () => {
    const before = streamCounters.started;
    const streamed = await get('/api/endpoints/query/big.streamed');
    expect(streamed.status).toBe(200);
    expect(streamCounters.started).toBe(before + 1);
    expect(streamed.headers['transfer-encoding']).toBe('chunked');
    expect(streamed.headers['x-row-count']).toBeUndefined(); // not known when the head went out
    expect(streamed.headers['x-cache']).toBe('MISS');
    const whole = await get('/api/endpoints/query/big.whole');
    expect(whole.headers['content-length']).toBe(String(whole.body.length));
    expect(whole.body.length).toBeGreaterThan(2 * STREAM_START_BYTES);
    expect(streamed.body.equals(whole.body)).toBe(true);
    const rows = (JSON.parse(streamed.body.toString()) as { result: Row[] }).result;
    expect(rows).toHaveLength(ROWS);
    expect(rows[9999]!.id).toBe('r09999');
    expect(rows[9999]!.len).toBe('9999 from 10.1.2.3 '.length + PAD);
  });

  it('NDJSON and CSV streams parse back to the same rows', async () => {
    const nd = await get('/api/endpoints/query/big.streamed', { Accept: 'application/x-ndjson' });
    expect(nd.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const ndRows = nd.body.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Row);
    expect(ndRows).toHaveLength(ROWS);
    const csv = await get('/api/endpoints/query/big.streamed', { Accept: 'text/csv' });
    const lines = csv.body.toString().split('\r\n');
    expect(lines[0]).toBe('id,event_message,len');
    expect(lines.at(-1)).toBe(''); // CRLF after the last record
    const csvRows = lines.slice(1, -1).map((l) => l.split(','));
    expect(csvRows).toHaveLength(ROWS);
    for (const i of [0, 4321, 9999]) {
      expect(csvRows[i]).toEqual([ndRows[i]!.id, ndRows[i]!.event_message, String(ndRows[i]!.len)]);
    }
  });

  it('redacted streams are redacted in every chunk', async () => {
    const r = await get('/api/endpoints/query/big.streamed', { 'LF-ENDPOINT-REDACT-PII': 'true', Accept: 'application/x-ndjson' });
    const text = r.body.toString();
    expect(text).not.toContain('10.1.2.3');
    expect(text.split('\n').filter(Boolean)).toHaveLength(ROWS);
  });

  it('waits while the client does not read, then finishes the body', async () => {
    const total = (await get('/api/endpoints/query/big.whole')).body.length;
    const body = await new Promise<Buffer>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: server.port, path: '/api/endpoints/query/big.streamed', headers: bearer(TOKENS.priv), agent: false }, (res) => {
        res.pause();
        const chunks: Buffer[] = [];
        void (async () => {
          await until('the stream to wait on the client', () => streamCounters.waiting === 1);
          const made = streamCounters.bytes;
          await new Promise((r) => setTimeout(r, 300));
          // Nothing more was made while the client read nothing, and far from the whole body was.
          expect(streamCounters.bytes).toBe(made);
          expect(streamCounters.waiting).toBe(1);
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks)));
          res.resume();
        })().catch(reject);
      }).on('error', reject);
    });
    expect(body.length).toBe(total);
    expect((JSON.parse(body.toString()) as { result: Row[] }).result).toHaveLength(ROWS);
  });

  it('a client that disconnects mid-stream stops the query and frees its slot', async () => {
    const before = streamCounters.started;
    await new Promise<void>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port: server.port, path: '/api/endpoints/query/big.streamed', headers: bearer(TOKENS.priv), agent: false }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => {});
      setTimeout(() => reject(new Error('no data')), 8000).unref();
    });
    expect(streamCounters.started).toBe(before + 1);
    await until('the query to stop', () => service.gate.stats().running === 0 && streamCounters.waiting === 0);
    const after = await get('/api/endpoints/query/big.whole');
    expect(after.status).toBe(200);
  });
});
