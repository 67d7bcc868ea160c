// Server lifecycle over real sockets: the native-binary check, port 0 and a taken port, and a
// graceful close that lets an in-flight request finish while refusing new connections.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertNativeUws, startServer } from '../../src/http/server.ts';
import { loadUws } from '../../src/http/uws.ts';
import { bearer, fakeService, startTestServer, testTokens, TOKENS, type TestServer } from './helpers.ts';

describe('native uWebSockets.js', () => {
  it('refuses the pure-JS fallback (no getParts)', () => {
    const fallback = { App: () => ({}), us_listen_socket_close: () => {} };
    expect(() => assertNativeUws(fallback)).toThrow(/fallback.*refusing to run degraded/);
    expect(() => assertNativeUws(null)).toThrow(/fallback/);
  });

  it('accepts the binary installed here and raised the header limit above ours before loading it', async () => {
    const uws = await loadUws();
    expect(assertNativeUws(uws)).toBe(uws);
    expect(process.env.UWS_HTTP_MAX_HEADERS_SIZE).toBe('262144');
  });
});

describe('listening', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(fakeService());
  });
  afterAll(() => server.close());

  it('port 0 picks a free port and reports it', async () => {
    expect(server.port).toBeGreaterThan(0);
    const r = await fetch(`${server.url}/health`);
    expect(r.status).toBe(200);
  });

  it('a taken port is an error, not a shared listener', async () => {
    await expect(
      startServer({
        service: fakeService(), host: '127.0.0.1', port: server.port, tokens: testTokens(), corsOrigin: '*',
        maxBodyBytes: 1024, maxUrlBytes: 1024, maxDecompressedBytes: 1024, log: () => {},
      }),
    ).rejects.toThrow(new RegExp(`Cannot listen on 127.0.0.1:${server.port}.*already in use`));
  });

  it('a long URL under the raised header limit reaches our own 414, not uWS 431', async () => {
    const r = await fetch(`${server.url}/api/endpoints/query/logs.all?sql=${'x'.repeat(20_000)}`, { headers: bearer(TOKENS.priv) });
    expect(r.status).toBe(414);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('uri_too_long');
  });
});

describe('graceful close', () => {
  it('finishes an in-flight request, then stops accepting', async () => {
    const svc = fakeService();
    let release!: () => void;
    svc.runGate = new Promise<void>((r) => (release = r));
    const server = await startTestServer(svc);
    const inflight = fetch(`${server.url}/api/endpoints/query/x`, { headers: bearer(TOKENS.query) });
    while (svc.runs.length === 0) await new Promise((r) => setTimeout(r, 5));
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);
    release();
    const r = await inflight;
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('{"result":[{"a":1}]}');
    await closing;
    expect(closed).toBe(true);
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
    await server.close(); // idempotent
  });
});

describe('aborted requests', () => {
  it('a client leaving during a slow query is not written to, and close() does not wait for it', async () => {
    const svc = fakeService();
    let release!: () => void;
    svc.runGate = new Promise<void>((r) => (release = r));
    const server = await startTestServer(svc);
    const ac = new AbortController();
    const pending = fetch(`${server.url}/api/endpoints/query/x`, { headers: bearer(TOKENS.query), signal: ac.signal }).catch((e: Error) => e.name);
    while (svc.runs.length === 0) await new Promise((r) => setTimeout(r, 5));
    ac.abort();
    expect(await pending).toBe('AbortError');
    await new Promise((r) => setTimeout(r, 30));
    release();
    await new Promise((r) => setTimeout(r, 10));
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    const t = Date.now();
    await server.close();
    expect(Date.now() - t).toBeLessThan(1000);
    expect(server.logs).toEqual([]);
  });
});
