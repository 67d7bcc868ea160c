// Ingest over HTTP (SPEC §3): every body form, NDJSON, gzip (with its inflate cap), size limits
// answered early, encodings, the source parameter, and the "Logged!" answer with dropped counts.

import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, fakeService, rawRequest, startTestServer, TOKENS, type FakeService, type TestServer } from './helpers.ts';

const MAX_BODY = 64 * 1024;
const MAX_INFLATED = 256 * 1024;
let svc: FakeService;
let server: TestServer;
beforeAll(async () => {
  svc = fakeService();
  server = await startTestServer(svc, { maxBodyBytes: MAX_BODY, maxDecompressedBytes: MAX_INFLATED });
});
afterAll(() => server.close());
beforeEach(() => {
  svc.ingests.length = 0;
});

const headers = { ...bearer(TOKENS.ingest), 'Content-Type': 'application/json' };
const post = (path: string, body: string | Buffer, extra: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { ...headers, ...extra }, body });
const errorOf = async (r: Response | { body: string }) =>
  ((typeof (r as Response).json === 'function' ? await (r as Response).json() : JSON.parse((r as { body: string }).body)) as { error: Record<string, unknown> }).error;

describe('body forms', () => {
  it('takes {"batch":[...]}, a bare array and a single object on all three paths', async () => {
    const a = await post('/api/logs?source_name=edge.logs.prod', '{"batch":[{"a":1},{"a":2}]}');
    expect(a.status).toBe(200);
    expect(await a.json()).toEqual({ message: 'Logged!' });
    expect((await post('/logs?source_name=edge.logs.prod', '[{"b":1}]')).status).toBe(200);
    expect((await post('/api/events?source=a5a1e2b4-0000-5000-8000-000000000001', '{"c":1}')).status).toBe(200);
    expect(svc.ingests).toEqual([
      { source: 'edge.logs.prod', events: [{ a: 1 }, { a: 2 }] },
      { source: 'edge.logs.prod', events: [{ b: 1 }] },
      { source: 'a5a1e2b4-0000-5000-8000-000000000001', events: [{ c: 1 }] },
    ]);
  });

  it('takes NDJSON, skipping blank lines and CRLF endings', async () => {
    const r = await post('/api/logs?source_name=edge.logs.prod', '{"a":1}\r\n\n  \n{"a":2}\n', { 'Content-Type': 'application/x-ndjson; charset=utf-8' });
    expect(r.status).toBe(200);
    expect(svc.ingests[0]!.events).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('a bad NDJSON line is a 400 naming its event index; nothing is stored', async () => {
    const r = await post('/api/logs?source_name=edge.logs.prod', '{"a":1}\n\n{"a":\n{"a":3}\n', { 'Content-Type': 'application/x-ndjson' });
    expect(r.status).toBe(400);
    const err = await errorOf(r);
    expect(err).toMatchObject({ code: 'invalid_events', errors: [{ index: 1, line: 3, message: expect.stringContaining('JSON') }] });
    expect(svc.ingests).toEqual([]);
  });

  it('empty batches and non-event bodies are 400 invalid_events', async () => {
    for (const body of ['{"batch":[]}', '[]', '', '42', '{"batch":{}}', '{not json']) {
      const r = await post('/api/logs?source_name=edge.logs.prod', body);
      expect(`${body} → ${r.status}`).toBe(`${body} → 400`);
      expect((await errorOf(r)).code).toBe('invalid_events');
    }
    expect(svc.ingests).toEqual([]);
  });

  it('reports events dropped as too old', async () => {
    const r = await post('/api/logs?source_name=edge.logs.prod', '[{"old":true},{"a":1},{"old":true}]');
    expect(await r.json()).toEqual({ message: 'Logged!', dropped: 2 });
  });

  it('a missing source is 400; an unknown one is 404 source_not_found', async () => {
    const missing = await post('/api/logs', '[{"a":1}]');
    expect(missing.status).toBe(400);
    expect(await errorOf(missing)).toMatchObject({ code: 'missing_parameter', param: 'source_name' });
    const unknown = await post('/api/logs?source_name=nope', '[{"a":1}]');
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).code).toBe('source_not_found');
  });
});

describe('gzip and other encodings', () => {
  it('inflates a gzip body', async () => {
    const gz = gzipSync(JSON.stringify({ batch: [{ a: 1 }, { a: 2 }] }));
    const r = await rawRequest(server.port, {
      method: 'POST', path: '/api/logs?source_name=edge.logs.prod',
      headers: { ...headers, 'Content-Encoding': 'gzip', 'Content-Length': gz.length }, body: gz,
    });
    expect(r.status).toBe(200);
    expect(svc.ingests[0]!.events).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('gzip NDJSON works too', async () => {
    const gz = gzipSync('{"a":1}\n{"a":2}\n');
    const r = await rawRequest(server.port, {
      method: 'POST', path: '/logs?source_name=edge.logs.prod',
      headers: { ...bearer(TOKENS.ingest), 'Content-Type': 'application/x-ndjson', 'Content-Encoding': 'gzip', 'Content-Length': gz.length }, body: gz,
    });
    expect(r.status).toBe(200);
    expect(svc.ingests[0]!.events).toHaveLength(2);
  });

  it('a body inflating past the cap (a zip bomb) is 413 and nothing is stored', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20)); // ~50 KB on the wire, 50 MB inflated
    expect(bomb.length).toBeLessThan(MAX_BODY);
    const r = await rawRequest(server.port, {
      method: 'POST', path: '/api/logs?source_name=edge.logs.prod',
      headers: { ...headers, 'Content-Encoding': 'gzip', 'Content-Length': bomb.length }, body: bomb,
    });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).error).toMatchObject({ code: 'payload_too_large', limit: MAX_INFLATED });
    expect(svc.ingests).toEqual([]);
  });

  it('corrupt gzip is a 400', async () => {
    const r = await rawRequest(server.port, {
      method: 'POST', path: '/api/logs?source_name=edge.logs.prod', headers: { ...headers, 'Content-Encoding': 'gzip', 'Content-Length': 9 }, body: 'not gzip!',
    });
    expect(r.status).toBe(400);
  });

  it('another encoding is 415 unsupported_encoding', async () => {
    const r = await post('/api/logs?source_name=edge.logs.prod', '[{"a":1}]', { 'Content-Encoding': 'br' });
    expect(r.status).toBe(415);
    expect(await errorOf(r)).toMatchObject({ code: 'unsupported_encoding', allowed: ['gzip', 'identity'] });
  });
});

describe('size limits', () => {
  it('a Content-Length over the limit is 413 at once, without reading the body, and the connection closes', async () => {
    const sock = net.connect(server.port, '127.0.0.1');
    let data = '';
    sock.on('data', (d: Buffer) => (data += d.toString()));
    const closed = new Promise((r) => sock.on('close', r));
    const started = Date.now();
    // Announces 100 MB and sends two bytes: the answer must not wait for the rest.
    sock.write(`POST /api/logs?source_name=edge.logs.prod HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKENS.ingest}\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n[{`);
    await closed;
    expect(Date.now() - started).toBeLessThan(2000);
    expect(data).toMatch(/^HTTP\/1.1 413 /);
    expect(data).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(data.slice(data.indexOf('\r\n\r\n') + 4)).error).toMatchObject({ code: 'payload_too_large', limit: MAX_BODY });
  });

  it('a chunked body growing past the limit is 413 while streaming', async () => {
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    const r = await rawRequest(server.port, {
      method: 'POST', path: '/api/logs?source_name=edge.logs.prod',
      headers: { ...headers, 'Transfer-Encoding': 'chunked' }, body: Array.from({ length: 8 }, () => chunk),
    });
    expect(r.status).toBe(413);
    expect(svc.ingests).toEqual([]);
  });

  it('a body just under the limit is fine', async () => {
    const events = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ i, pad: 'x'.repeat(80) })));
    expect(events.length).toBeLessThan(MAX_BODY);
    expect((await post('/api/logs?source_name=edge.logs.prod', events)).status).toBe(200);
  });

  it('the server keeps serving after a client aborts mid-body', async () => {
    const http = await import('node:http');
    await new Promise<void>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port: server.port, method: 'POST', path: '/api/logs?source_name=edge.logs.prod', headers: { ...headers, 'Content-Length': 1000 } });
      req.on('error', () => resolve());
      req.write('[{"a":');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 30);
    });
    await new Promise((r) => setTimeout(r, 30));
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect(svc.ingests).toEqual([]);
  });
});
