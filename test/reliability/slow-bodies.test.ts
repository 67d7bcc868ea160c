// Slow bodies (issue 13 item 13, SPEC §11) over raw sockets against a real server with small limits:
// stalled partial bodies fill only the ingest slots, /health and queries still answer, and the
// stalled connections are cut at the body deadline so their slots come back.

import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { httpLimitsFromEnv } from '../../src/http/http-limits.ts';
import { bearer, rawRequest, startTestServer, TOKENS, type TestServer } from '../http/helpers.ts';

const auth = bearer(TOKENS.priv);
const SLOTS = 8;
let server: TestServer;
let service: Awaited<ReturnType<typeof createQueryService>>;

beforeAll(async () => {
  service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null });
  server = await startTestServer(service, { inflight: { ingest: SLOTS, query: SLOTS, other: SLOTS }, bodyTimeoutMs: 1000, bodyIdleTimeoutMs: 1000 });
});
afterAll(async () => {
  await server.close();
  service.close();
});

interface Stalled {
  socket: Socket;
  /** Everything the server wrote back. */
  received: () => string;
  /** Resolves with ms since the socket opened when the server closes it. */
  closed: Promise<number>;
}

/** An ingest whose head and a first body byte are sent, then nothing more (1000 bytes announced). */
function stalledIngest(port: number, extraBytes: (s: Socket) => void = () => {}): Promise<Stalled> {
  return new Promise((resolve) => {
    const opened = Date.now();
    let got = '';
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<number>((r) => socket.on('close', () => r(Date.now() - opened)));
    socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('connect', () => {
      socket.write(`POST /api/logs?source_name=edge.logs.prod HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKENS.priv}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[`);
      extraBytes(socket);
      resolve({ socket, received: () => got, closed });
    });
  });
}

const event = (id: string) => ({ id, timestamp: new Date(Date.now() - 1000).toISOString(), project: 'p', event_message: 'm', metadata: {} });
const ingest = (id: string) =>
  rawRequest(server.port, { method: 'POST', path: '/api/logs?source_name=edge.logs.prod', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify([event(id)]) });
const runQuery = () => rawRequest(server.port, { path: '/api/endpoints/query/logs.all?project=p', headers: auth });

async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = Date.now();
  const value = await f();
  return { value, ms: Date.now() - t0 };
}

describe('stalled request bodies', () => {
  it('fill only the ingest slots: /health and queries answer at once, the stalled are cut at the deadline and the slots come back', async () => {
    const stalled = await Promise.all(Array.from({ length: 3 * SLOTS }, () => stalledIngest(server.port)));
    await new Promise((r) => setTimeout(r, 150));
    // The slots beyond the ingest limit were shed at once with 503 overloaded.
    const shed = stalled.filter((s) => s.received().startsWith('HTTP/1.1 503'));
    expect(shed.length).toBe(2 * SLOTS);
    expect(shed[0]!.received()).toContain('"overloaded"');

    const health = await timed(() => rawRequest(server.port, { path: '/health' }));
    expect(health.value.status).toBe(200);
    expect(health.ms).toBeLessThan(1000);
    const query = await timed(runQuery);
    expect(query.value.status).toBe(200);
    expect(query.ms).toBeLessThan(1000);
    expect((await ingest('while-full')).status).toBe(503);

    // The eight holding a slot are closed by the server after the 1 s body deadline, with no answer.
    const holding = stalled.filter((s) => s.received() === '');
    expect(holding.length).toBe(SLOTS);
    const closedAfter = await Promise.all(holding.map((s) => s.closed));
    for (const ms of closedAfter) {
      expect(ms).toBeGreaterThanOrEqual(900);
      expect(ms).toBeLessThan(3000);
    }
    for (const s of stalled) s.socket.destroy();
    expect((await ingest('after')).status).toBe(200);
  });

  it('a body that trickles a byte at a time is still cut at the whole-body deadline', async () => {
    let timer: NodeJS.Timeout | undefined;
    const s = await stalledIngest(server.port, (socket) => {
      timer = setInterval(() => socket.write(' '), 200);
    });
    const ms = await s.closed;
    clearInterval(timer);
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3000);
    expect(s.received()).toBe('');
  });

  it('a body that arrives in time in slow pieces is served', async () => {
    const body = JSON.stringify([event('pieces')]);
    const r = await rawRequest(server.port, {
      method: 'POST', path: '/api/logs?source_name=edge.logs.prod',
      headers: { ...auth, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      body: [Buffer.from(body.slice(0, 10)), Buffer.from(body.slice(10))],
    });
    expect(r.status).toBe(200);
  });
});

describe('the whole-body deadline and event-loop stalls', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer(service, { bodyTimeoutMs: 1000, bodyIdleTimeoutMs: 20_000 });
  });
  afterAll(() => strict.close());

  it('time the server itself was busy does not count against the client', async () => {
    const body = JSON.stringify([event('after-stall')]);
    const answer = await new Promise<string>((resolve) => {
      let got = '';
      const socket = connect(strict.port, '127.0.0.1', () => {
        socket.write(`POST /api/logs?source_name=edge.logs.prod HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKENS.priv}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`);
        // The shared event loop is held for 1.5 s (past the whole 1 s deadline) inside an I/O callback;
        // the client, as one held back by TCP flow control would, sends the rest only 300 ms after it.
        setTimeout(() => {
          const other = connect(strict.port, '127.0.0.1', () => other.write('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
          other.once('data', () => {
            const until = Date.now() + 1500;
            while (Date.now() < until);
            other.destroy();
            setTimeout(() => socket.write(body.slice(5)), 300);
          });
        }, 50);
      });
      socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => resolve(got));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
  });
});

describe('the idle cut', () => {
  let idle: TestServer;
  beforeAll(async () => {
    idle = await startTestServer(service, { bodyTimeoutMs: 20_000, bodyIdleTimeoutMs: 300 });
  });
  afterAll(() => idle.close());

  it('a body that pauses longer than RINGQL_BODY_IDLE_TIMEOUT_MS is cut long before the whole-body deadline', async () => {
    const s = await stalledIngest(idle.port);
    const ms = await s.closed;
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(2000);
  });

  it('a body that arrived while the event loop was busy (a heavy query) is not cut for the stall', async () => {
    const body = JSON.stringify([event('stall')]);
    const answer = await new Promise<string>((resolve) => {
      let got = '';
      const socket = connect(idle.port, '127.0.0.1', () => {
        socket.write(`POST /api/logs?source_name=edge.logs.prod HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKENS.priv}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`);
        // The server shares this process. Its event loop is held, inside an I/O callback as a heavy query
        // would hold it, for over three idle timeouts while the rest of the body waits in the kernel.
        setTimeout(() => {
          const other = connect(idle.port, '127.0.0.1', () => other.write('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
          other.once('data', () => {
            socket.write(body.slice(5));
            const until = Date.now() + 1000;
            while (Date.now() < until);
            other.destroy();
          });
        }, 50);
      });
      socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
      socket.on('error', () => {});
      socket.on('close', () => resolve(got));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
  });
});

describe('httpLimitsFromEnv', () => {
  it('reads the per-kind and body-deadline variables, defaults each kind to RINGQL_MAX_CONCURRENT_REQUESTS, and names a bad one', () => {
    expect(httpLimitsFromEnv({}, 512)).toEqual({
      maxUrlBytes: 65536, inflight: { ingest: 512, query: 512, other: 512 }, bodyTimeoutMs: 10_000, bodyIdleTimeoutMs: 5_000,
    });
    expect(httpLimitsFromEnv({ RINGQL_MAX_INFLIGHT_INGEST: '8', RINGQL_BODY_TIMEOUT_MS: '1000' }, 64)).toMatchObject({
      inflight: { ingest: 8, query: 64, other: 64 }, bodyTimeoutMs: 1000, bodyIdleTimeoutMs: 1000,
    });
    expect(() => httpLimitsFromEnv({ RINGQL_MAX_INFLIGHT_QUERY: '0' }, 512)).toThrow(/RINGQL_MAX_INFLIGHT_QUERY="0"/);
    expect(() => httpLimitsFromEnv({ RINGQL_BODY_TIMEOUT_MS: 'soon' }, 512)).toThrow(/RINGQL_BODY_TIMEOUT_MS/);
    expect(() => httpLimitsFromEnv({ RINGQL_MAX_URL_BYTES: String(1024 * 1024) }, 512)).toThrow(/RINGQL_MAX_URL_BYTES/);
  });
});
