// Live subscriptions (SPEC §3) over a real server and engine: the first result, an update within 2 s
// of an ingest (bucket aggregate and row endpoint), auth refused, redaction, the per-token bound, and
// a consumer that stops reading closed with 1013.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { bearer, startTestServer, TOKENS, type TestServer } from './helpers.ts';
import { connectWs, type WsClient } from '../helpers/ws-client.ts';

type Row = Record<string, unknown>;
type Msg = { result?: Row[]; append?: Row[]; error?: { code: string; message: string } };

let server: TestServer;
let closeService: () => void;
let seq = 0;

function edgeEvent(project: string, path: string, message = `GET ${path} 200`): Row {
  seq++;
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    timestamp: new Date(Date.now() - 1000 + seq).toISOString(),
    event_message: message,
    project,
    metadata: { request: { method: 'GET', path, url: `https://${project}.api.example.com${path}` } },
  };
}

async function ingest(events: Row[]): Promise<void> {
  const r = await fetch(`${server.url}/api/logs?source_name=edge.logs.prod`, {
    method: 'POST', headers: { ...bearer(TOKENS.priv), 'Content-Type': 'application/json' }, body: JSON.stringify({ batch: events }),
  });
  expect(r.status).toBe(200);
}

const open = (path: string, headers?: Record<string, string>): Promise<WsClient> => connectWs(server.port, path, headers);
const next = async (ws: WsClient, ms = 5000): Promise<Msg> => (await ws.next(ms)) as Msg;

beforeAll(async () => {
  const service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, cache: { sweepMs: 0 } });
  server = await startTestServer(service, { maxBodyBytes: 64 * 1024 * 1024, maxDecompressedBytes: 64 * 1024 * 1024, live: { maxPerToken: 3, maxBufferedBytes: 64 * 1024 } });
  closeService = () => service.close();
  await ingest([edgeEvent('alpha', '/rest/v1/a'), edgeEvent('alpha', '/auth/v1/b'), edgeEvent('beta', '/rest/v1/c')]);
});
afterAll(async () => {
  await server.close();
  closeService();
});

describe('row endpoint (logs.all)', () => {
  it('sends the first result, then only the new rows of the project, within 2 s of the ingest', async () => {
    const ws = await open(`/api/endpoints/live/logs.all?project=alpha&api_key=${TOKENS.query}`);
    const first = await next(ws);
    expect(first.result!.map((r) => r.event_message)).toEqual(['GET /auth/v1/b 200', 'GET /rest/v1/a 200']);
    const newer = [edgeEvent('alpha', '/storage/v1/x'), edgeEvent('beta', '/rest/v1/y'), edgeEvent('alpha', '/realtime/v1/z')];
    const t0 = Date.now();
    await ingest(newer);
    const update = await next(ws, 2000);
    expect(Date.now() - t0).toBeLessThan(2000);
    // Only alpha's two new rows, newest first as logs.all orders them; nothing already sent comes again.
    expect(update.result).toBeUndefined();
    expect(update.append!.map((r) => r.id)).toEqual([newer[2]!.id, newer[0]!.id]);
    ws.close();
  });
});

describe('push after ingest', () => {
  it('an update follows its ingest at once when the interval since the last message has passed, not at the next tick', async () => {
    const ws = await open(`/api/endpoints/live/logs.all?project=delta&interval_ms=2000&api_key=${TOKENS.query}`);
    expect((await next(ws)).result).toEqual([]);
    // Just past one interval: the timer's step has run (and found nothing); the next tick is ~1.9 s away.
    await new Promise((r) => setTimeout(r, 2100));
    const e = edgeEvent('delta', '/rest/v1/now');
    const t0 = Date.now();
    await ingest([e]);
    expect((await next(ws, 1000)).append!.map((r) => r.id)).toEqual([e.id]);
    expect(Date.now() - t0).toBeLessThan(1000);
    ws.close();
  });
});

describe('time-bucket endpoint (usage.api-counts)', () => {
  it('sends the changed buckets within 2 s of an ingest (default interval)', async () => {
    const ws = await open(`/api/endpoints/live/usage.api-counts?interval=hourly&project=alpha&api_key=${TOKENS.query}`);
    const first = await next(ws);
    const total = (rows: Row[], col: string): number => rows.reduce((n, r) => n + Number(r[col]), 0);
    const rest0 = total(first.result!, 'total_rest_requests');
    const storage0 = total(first.result!, 'total_storage_requests');
    const t0 = Date.now();
    await ingest([edgeEvent('alpha', '/rest/v1/more'), edgeEvent('alpha', '/rest/v1/more2'), edgeEvent('beta', '/storage/v1/other')]);
    const update = await next(ws, 2000);
    expect(Date.now() - t0).toBeLessThan(2000);
    // Two more alpha REST calls counted; beta's storage call matches another project's URL and does not.
    expect(total(update.result!, 'total_rest_requests')).toBe(rest0 + 2);
    expect(total(update.result!, 'total_storage_requests')).toBe(storage0);
    ws.close();
  });

  it('accepts interval_ms and refuses a bad one with an error then a close', async () => {
    const ws = await open(`/api/endpoints/live/usage.api-counts?interval=hourly&project=alpha&interval_ms=5&api_key=${TOKENS.query}`);
    const m = await next(ws);
    expect(m.error!.code).toBe('invalid_parameter');
    expect((await ws.closed).code).toBe(4400);
  });
});

describe('auth', () => {
  it('refuses an unknown token (4401) and a token without the query scope (4403)', async () => {
    const bad = await open(`/api/endpoints/live/logs.all?project=alpha&api_key=nope`);
    expect((await next(bad)).error!.code).toBe('unauthorized');
    expect((await bad.closed).code).toBe(4401);
    const ingestOnly = await open(`/api/endpoints/live/logs.all?project=alpha&api_key=${TOKENS.ingest}`);
    expect((await next(ingestOnly)).error!.code).toBe('forbidden');
    expect((await ingestOnly.closed).code).toBe(4403);
  });

  it('takes the token from the first message, and refuses a first message without one', async () => {
    const ws = await open(`/api/endpoints/live/logs.all?project=alpha`);
    ws.send({ api_key: TOKENS.query });
    expect((await next(ws)).result!.length).toBeGreaterThan(0);
    ws.close();
    const none = await open(`/api/endpoints/live/logs.all?project=alpha`);
    none.send({ hello: 1 });
    expect((await next(none)).error!.code).toBe('unauthorized');
    expect((await none.closed).code).toBe(4401);
  });

  it('reports a missing required parameter and an unknown endpoint', async () => {
    const ws = await open(`/api/endpoints/live/logs.all?api_key=${TOKENS.query}`);
    expect((await next(ws)).error).toMatchObject({ code: 'missing_parameter', param: 'project' });
    expect((await ws.closed).code).toBe(4400);
    const nf = await open(`/api/endpoints/live/no.such?api_key=${TOKENS.query}`);
    expect((await next(nf)).error!.code).toBe('endpoint_not_found');
    expect((await nf.closed).code).toBe(4404);
  });

  it('bounds the subscriptions per token (3 here) with too_many_requests', async () => {
    const held = await Promise.all([1, 2, 3].map(() => open(`/api/endpoints/live/logs.all?project=alpha&api_key=${TOKENS.both}`)));
    for (const ws of held) expect((await next(ws)).result).toBeDefined();
    const extra = await open(`/api/endpoints/live/logs.all?project=alpha&api_key=${TOKENS.both}`);
    expect((await next(extra)).error!.code).toBe('too_many_requests');
    expect((await extra.closed).code).toBe(4429);
    held[0]!.close();
    await held[0]!.closed;
    await new Promise((r) => setTimeout(r, 100));
    const again = await open(`/api/endpoints/live/logs.all?project=alpha&api_key=${TOKENS.both}`);
    expect((await next(again)).result).toBeDefined();
    for (const ws of [...held.slice(1), again]) ws.close();
  });
});

describe('redaction', () => {
  it('redacts the first result and appended rows when the first message asks for it', async () => {
    await ingest([edgeEvent('gamma', '/rest/v1/a', 'login from 10.1.2.3 ok')]);
    const ws = await open(`/api/endpoints/live/logs.all?project=gamma`);
    ws.send({ api_key: TOKENS.query, redact_pii: true });
    expect((await next(ws)).result!.map((r) => r.event_message)).toEqual(['login from REDACTED ok']);
    await ingest([edgeEvent('gamma', '/rest/v1/b', 'peer [2001:db8::1] left')]);
    expect((await next(ws, 2000)).append!.map((r) => r.event_message)).toEqual(['peer [REDACTED] left']);
    ws.close();
  });

  it('honours the LF-ENDPOINT-REDACT-PII header on the upgrade, and leaves rows alone without it', async () => {
    const withHeader = await open(`/api/endpoints/live/logs.all?project=gamma&api_key=${TOKENS.query}`, { 'LF-ENDPOINT-REDACT-PII': 'true' });
    expect((await next(withHeader)).result!.map((r) => r.event_message)).toContain('login from REDACTED ok');
    withHeader.close();
    const plain = await open(`/api/endpoints/live/logs.all?project=gamma&api_key=${TOKENS.query}`);
    expect((await next(plain)).result!.map((r) => r.event_message)).toContain('login from 10.1.2.3 ok');
    plain.close();
  });
});

describe('slow consumer', () => {
  it('closes a consumer that stops reading with 1013, and the server keeps serving', async () => {
    const create = await fetch(`${server.url}/api/endpoints`, {
      method: 'POST', headers: { ...bearer(TOKENS.priv), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'big.rows', query: 'select id, event_message from `edge.logs.prod` where project = @project', max_limit: 10000, cache_duration_seconds: 0 }),
    });
    expect(create.status).toBe(201);
    const pad = 'x'.repeat(4000);
    for (let b = 0; b < 4; b++) await ingest(Array.from({ length: 1000 }, () => edgeEvent('bulk', '/rest/v1/q', pad)));
    // The first result (about 16 MB) fills the socket buffers of a client that reads nothing...
    const ws = await open(`/api/endpoints/live/big.rows?project=bulk&interval_ms=100&api_key=${TOKENS.query}`);
    ws.pause();
    await new Promise((r) => setTimeout(r, 300));
    // ...so when the next update is due, more than 64 KiB still wait: closed with 1013.
    await ingest([edgeEvent('bulk', '/rest/v1/late', 'late')]);
    await new Promise((r) => setTimeout(r, 500));
    ws.resume();
    expect((await ws.closed).code).toBe(1013);
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
  }, 30_000); // about 3 s alone; 16 MB of ingest is slow on a loaded 2-core machine
});
