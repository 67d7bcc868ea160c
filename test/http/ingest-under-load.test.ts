// Issue 16 item 2: with request bodies parsed on the transform thread, a bulk load does not stall the
// server: while clients keep posting 5 000-event bodies, /health answers within 1 s and a small batch is
// acknowledged within 2 s (generous liveness bounds; the real server over loopback, write-ahead log on).

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, startMainProcess } from '../helpers/main-process.ts';

const TOKEN = 'load-token';
const headers = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
let port = 0;
let child: ChildProcess;

beforeAll(async () => {
  port = await freePort();
  child = await startMainProcess(port, { RINGQL_ACCESS_TOKENS: TOKEN, RINGQL_STATE_DIR: mkdtempSync(join(tmpdir(), 'ringql-under-load-')) });
});
afterAll(async () => {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
});

/** An edge event of about 600 bytes, as SAMPLE-EVENTS.md's edge logs look. */
function edgeEvent(i: number): unknown {
  return {
    timestamp: new Date(Date.now() - (i % 3600) * 1000).toISOString(), project: `proj${i % 7}`,
    event_message: `GET /rest/v1/orders?id=eq.${i} 200`,
    metadata: {
      request: { method: 'GET', path: '/rest/v1/orders', url: `https://proj${i % 7}.example.com/rest/v1/orders?id=eq.${i}`, headers: { 'user-agent': 'curl/8.5.0', 'x-client-info': 'supabase-js/2.45.0', 'cf-ray': `8f${i}abc-FRA` } },
      response: { status_code: 200, headers: { 'content-type': 'application/json', 'content-length': String(100 + (i % 900)) } },
      cf: { country: 'DE', colo: 'FRA', asn: 3320 },
    },
  };
}

async function timed(f: () => Promise<Response>): Promise<{ ms: number; status: number }> {
  const t = performance.now();
  const r = await f();
  await r.arrayBuffer();
  return { ms: performance.now() - t, status: r.status };
}

it('answers /health within 1 s and acknowledges a small batch within 2 s while a bulk load runs', { timeout: 60_000 }, async () => {
  const bulk = JSON.stringify({ batch: Array.from({ length: 5000 }, (_, i) => edgeEvent(i)) });
  const small = JSON.stringify([edgeEvent(1), edgeEvent(2), edgeEvent(3)]);
  const url = (path: string): string => `http://127.0.0.1:${port}${path}`;
  let loading = true, bulkAcked = 0;
  const loader = async (): Promise<void> => {
    while (loading) {
      const r = await fetch(url('/api/logs?source_name=edge.logs.prod'), { method: 'POST', headers, body: bulk });
      await r.arrayBuffer();
      expect(r.status).toBe(200);
      bulkAcked++;
    }
  };
  const loaders = Array.from({ length: 2 }, loader);
  await new Promise((r) => setTimeout(r, 500));
  const health: number[] = [], acks: number[] = [];
  for (let k = 0; k < 4; k++) {
    const h = await timed(() => fetch(url('/health')));
    const a = await timed(() => fetch(url('/api/logs?source_name=edge.logs.prod'), { method: 'POST', headers, body: small }));
    expect([h.status, a.status]).toEqual([200, 200]);
    health.push(h.ms);
    acks.push(a.ms);
    await new Promise((r) => setTimeout(r, 100));
  }
  const ackedDuringProbes = bulkAcked;
  loading = false;
  await Promise.all(loaders);
  // The load was real: bulk bodies kept being stored while the probes ran.
  expect(ackedDuringProbes).toBeGreaterThan(2);
  expect(Math.max(...health), `health ms ${health.map(Math.round).join(',')}`).toBeLessThanOrEqual(1000);
  expect(Math.max(...acks), `small batch ms ${acks.map(Math.round).join(',')}`).toBeLessThanOrEqual(2000);
});
