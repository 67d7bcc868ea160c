// The load-and-fault test behind `npm run soak` and its short CI version: the real server in a child
// process under concurrent ingest and queries at saturation, plus malformed bodies, requests aborted
// mid-body and dropped connections, then SIGTERM with requests in flight. Loopback only.

import type { ChildProcess } from 'node:child_process';
import { freePort, startMainProcess } from '../helpers/main-process.ts';
import { connect } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { generateEvents, GEN_SOURCE_NAMES } from '../../src/gen/generate.ts';

const TOKEN = 'soak-token';
const H = { 'X-API-KEY': TOKEN };

export interface SoakReport {
  seconds: number;
  acknowledged: Record<string, number>;
  found: Record<string, number>;
  statuses: Record<string, number>;
  unexpected: string[];
  peakRssBytes: number;
  rssBoundBytes: number;
  inflightAtSigterm: number;
  inflightCompleted: number;
  exitCode: number | null;
}

function start(port: number): Promise<ChildProcess> {
  return startMainProcess(port, { RINGQL_ACCESS_TOKENS: TOKEN, RINGQL_STATE_DIR: mkdtempSync(join(tmpdir(), 'ringql-soak-')), RINGQL_MAX_CONCURRENT_REQUESTS: '64' });
}

/** Runs the soak for `seconds` of load. Throws only on harness failure; the report says what held. */
export async function soak(seconds: number, onProgress: (line: string) => void = () => {}): Promise<SoakReport> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = await start(port);
  const statuses: Record<string, number> = {};
  const unexpected: string[] = [];
  const acknowledged: Record<string, number> = Object.fromEntries(GEN_SOURCE_NAMES.map((s) => [s, 0]));
  const note = (what: string, status: number, ok: boolean, body = ''): void => {
    statuses[`${what} ${status}`] = (statuses[`${what} ${status}`] ?? 0) + 1;
    if (!ok && unexpected.length < 20) unexpected.push(`${what} → ${status} ${body.slice(0, 200)}`);
  };
  // Documented 503s (shedding, time budget) are allowed anywhere; any other 5xx is a failure.
  const fine = (status: number, expected: number[]): boolean => expected.includes(status) || status === 503;
  const deadline = Date.now() + seconds * 1000;
  let peakRss = 0;
  const gen = generateEvents({ events: 10_000_000, projects: 20, days: 1, seed: 5, endUs: Date.now() * 1000 });
  const nextBatch = (n: number): Map<string, unknown[]> => {
    const m = new Map<string, unknown[]>();
    for (let i = 0; i < n; i++) {
      const g = gen.next().value!;
      const list = m.get(g.source) ?? [];
      list.push(g.event);
      m.set(g.source, list);
    }
    return m;
  };

  const ingester = async (): Promise<void> => {
    while (Date.now() < deadline) {
      for (const [source, events] of nextBatch(500)) {
        const r = await fetch(`${base}/api/logs?source_name=${source}`, { method: 'POST', headers: { ...H, 'Content-Type': 'application/json' }, body: JSON.stringify(events) });
        const body = await r.text();
        note('ingest', r.status, fine(r.status, [200]), body);
        if (r.status === 200) acknowledged[source]! += events.length - ((JSON.parse(body) as { dropped?: number }).dropped ?? 0);
      }
    }
  };
  const queries = ['/api/endpoints/query/logs.all?project=default', '/api/endpoints/query/usage.api-counts?interval=minutely&project=default',
    `/api/endpoints/query/logs.all?project=default&sql=${encodeURIComponent("select r.path, count(*) as n from edge_logs t cross join unnest(t.metadata) m cross join unnest(m.request) r group by 1 order by 2 desc limit 5")}`,
    `/api/endpoints/query/logs.all?project=default&lql=${encodeURIComponent('f:edge_logs m.response.status_code:>=500')}`];
  const querier = async (): Promise<void> => {
    let i = 0;
    while (Date.now() < deadline) {
      const r = await fetch(base + queries[i++ % queries.length], { headers: H });
      const body = await r.text();
      note('query', r.status, fine(r.status, [200]), body);
    }
  };
  const malformed = async (): Promise<void> => {
    const bodies = ['{"batch":[', '[1,2,3]', 'not json', '{"batch":[{"timestamp":"yesterday"}]}', '\u0000\u0001'];
    let i = 0;
    while (Date.now() < deadline) {
      const r = await fetch(`${base}/api/logs?source_name=edge.logs.prod`, { method: 'POST', headers: { ...H, 'Content-Type': 'application/json' }, body: bodies[i++ % bodies.length] });
      const body = await r.text();
      note('malformed', r.status, fine(r.status, [400]), body);
      const q = await fetch(`${base}/api/endpoints/query/logs.all?project=default&sql=${encodeURIComponent('select * from `edge.logs.prod`; drop table x')}`, { headers: H });
      note('hostile query', q.status, fine(q.status, [400]), await q.text());
      await new Promise((res) => setTimeout(res, 20));
    }
  };
  const rude = async (): Promise<void> => {
    let i = 0;
    while (Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const s = connect(port, '127.0.0.1', () => {
          if (i % 3 === 0) s.write(`POST /api/logs?source_name=edge.logs.prod HTTP/1.1\r\nHost: x\r\nX-API-KEY: ${TOKEN}\r\nContent-Length: 5000\r\n\r\n[{"event_message":"half`);
          else if (i % 3 === 1) s.write('GET /api/endpoints/query/logs.all?proj');
          setTimeout(() => { s.destroy(); resolve(); }, 5 + (i % 20));
        });
        s.on('error', () => resolve());
      });
      i++;
      statuses['aborted/dropped connections'] = (statuses['aborted/dropped connections'] ?? 0) + 1;
    }
  };
  const watch = async (): Promise<void> => {
    while (Date.now() < deadline) {
      const r = await fetch(`${base}/health`);
      const h = (await r.json()) as { memory?: { rss: number } };
      if (h.memory) peakRss = Math.max(peakRss, h.memory.rss);
      onProgress(`soak: ${Math.max(0, Math.round((deadline - Date.now()) / 1000))} s left, ${Object.values(acknowledged).reduce((a, b) => a + b, 0)} events acknowledged, rss ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
      await new Promise((res) => setTimeout(res, 1000));
    }
  };
  await Promise.all([ingester(), ingester(), querier(), querier(), malformed(), rude(), watch()]);

  // Every acknowledged event must be visible.
  const src = (await (await fetch(`${base}/api/sources`, { headers: H })).json()) as { name: string; rows: number }[] | { sources: { name: string; rows: number }[] };
  const list = Array.isArray(src) ? src : src.sources;
  const found = Object.fromEntries(list.map((s) => [s.name, s.rows]));

  // SIGTERM with requests in flight: they must complete, and the process must exit 0.
  const inflight = Array.from({ length: 8 }, (_, i) => fetch(base + queries[i % queries.length]!, { headers: H }).then((r) => r.status, () => -1));
  await new Promise((res) => setTimeout(res, 5));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  child.kill('SIGTERM');
  const done = await Promise.all(inflight);
  const exitCode = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 15_000))]);
  if (exitCode === null) child.kill('SIGKILL');
  return {
    seconds, acknowledged, found, statuses, unexpected, peakRssBytes: peakRss,
    rssBoundBytes: 2 * 2 ** 30,
    inflightAtSigterm: inflight.length, inflightCompleted: done.filter((s) => s === 200).length, exitCode,
  };
}
