// The serving bench of issue 18: ringql (pinned to core 0) against raw uWebSockets.js serving the same
// bytes (also core 0), wrk on core 1; cached usage.api-counts, logs.all computed per request, p99 at half
// the cached maximum rate, and resident-memory growth of a streamed NDJSON/CSV answer. Writes
// bench/RESULTS-serving.md.   Run: node --import tsx bench/serving-bench.ts [seconds]

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './http-bench.ts';
import { ensureWrk, luaScript, wrk, type WrkFigure } from './serving-load.ts';
import { api, startPinned, startRingqlPinned, TOKEN } from './serving-server.ts';

const SECONDS = Number(process.argv[2] ?? 8);
const EVENTS = 100_000;
/** Enough for 10 000 edge rows (about a third of the demo events are edge events). */
const MEMORY_EVENTS = 40_000;
const CONNECTIONS = 32;
const root = new URL('..', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'ringql-serving-'));
const say = (s: string): void => void process.stderr.write(`serving bench: ${s}\n`);

/** Raw uWS on core 0 answering every GET with `body`; measured with the same wrk settings as ringql. */
async function rawFigure(body: Buffer, path: string, script?: string): Promise<WrkFigure> {
  const port = await freePort();
  const file = join(tmp, `raw-${port}.bin`);
  writeFileSync(file, body);
  const raw = await startPinned(['bench/raw-uws-server.ts', String(port), file], {}, /raw uWS listening/);
  try {
    return await wrk(`http://127.0.0.1:${port}${path}`, { seconds: SECONDS, connections: CONNECTIONS, core: 1, token: TOKEN, serverPid: raw.pid!, ...(script ? { script } : {}) });
  } finally {
    raw.kill('SIGKILL');
  }
}

/** Peak resident growth of the server (VmHWM after minus VmRSS before, the peak reset first) while one answer is read. */
async function rssGrowth(pid: number, base: string, path: string, accept: string): Promise<{ growthMiB: number; bodyMiB: number; streamed: boolean }> {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const kib = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  const before = kib('VmRSS');
  const r = await api(base, path, { headers: { Accept: accept } });
  if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
  return { growthMiB: (kib('VmHWM') - before) / 1024, bodyMiB: r.body.length / 2 ** 20, streamed: r.headers.get('content-length') === null };
}

async function startServer(events: number): Promise<{ server: ChildProcess; base: string }> {
  return startRingqlPinned(tmp, events);
}

/** The growth of one answer, each in a fresh server (memory a previous answer freed would hide it). */
async function memoryRun(endpoint: { name: string; cache_duration_seconds: number }, accept: string): Promise<{ growthMiB: number; bodyMiB: number; streamed: boolean }> {
  const { server, base } = await startServer(MEMORY_EVENTS);
  try {
    const def = { ...endpoint, query: 'select id, timestamp, event_message, metadata from `edge.logs.prod`', max_limit: 10000 };
    await api(base, '/api/endpoints', { method: 'POST', body: JSON.stringify(def) });
    return await rssGrowth(server.pid!, base, `/api/endpoints/query/${endpoint.name}`, accept);
  } finally {
    server.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  await ensureWrk();
  const { server, base } = await startServer(EVENTS);
  const lines: string[] = [];
  try {
    const project = 'default';
    const cached = `/api/endpoints/query/usage.api-counts?interval=hourly&project=${project}`;
    const logs = `/api/endpoints/query/logs.all?project=${project}`;
    await api(base, cached);
    const c = await api(base, cached);
    const l = await api(base, logs);
    if (c.status !== 200 || l.status !== 200 || l.body.length < 1000) throw new Error(`warm-up answered ${c.status}/${l.status} (${l.body.length} B)`);
    say(`cached usage.api-counts: ${c.body.length} B, X-Cache ${c.headers.get('x-cache')}/${c.headers.get('x-cache-kind')}`);
    const fig = { cached: await wrk(base + cached, { seconds: SECONDS, connections: CONNECTIONS, core: 1, token: TOKEN, serverPid: server.pid! }), cachedRaw: await rawFigure(c.body, cached) };
    const rotate = luaScript(tmp, { rotate: { param: 'iso_timestamp_start' } });
    say(`logs.all rotating iso_timestamp_start: ${l.body.length} B`);
    const logsFig = await wrk(base + logs, { seconds: SECONDS, connections: CONNECTIONS, core: 1, token: TOKEN, serverPid: server.pid!, script: rotate });
    const logsRaw = await rawFigure(l.body, logs, rotate);
    // Half the cached maximum: each of 16 connections waits 16 / (rate / 2) s between requests.
    const target = fig.cached.reqPerSec / 2;
    const delay = luaScript(tmp, { delayMs: (16 * 1000) / target });
    const half = await wrk(base + cached, { seconds: SECONDS, connections: 16, core: 1, token: TOKEN, serverPid: server.pid!, script: delay });
    server.kill('SIGTERM');
    const streamed = { name: 'bench.stream', cache_duration_seconds: 0 };
    const mem = {
      ndjson: await memoryRun(streamed, 'application/x-ndjson'),
      csv: await memoryRun(streamed, 'text/csv'),
      whole: await memoryRun({ name: 'bench.whole', cache_duration_seconds: 60 }, 'application/x-ndjson'),
    };
    lines.push(...report(fig.cached, fig.cachedRaw, logsFig, logsRaw, half, target, mem, c.body.length, l.body.length));
  } finally {
    server.kill('SIGTERM');
  }
  const out = join(root, 'bench', 'RESULTS-serving.md');
  writeFileSync(out, lines.join('\n') + '\n');
  process.stdout.write(lines.join('\n') + '\n');
  say(`wrote ${out}`);
}

type Mem = Record<'ndjson' | 'csv' | 'whole', { growthMiB: number; bodyMiB: number; streamed: boolean }>;

function report(cached: WrkFigure, cachedRaw: WrkFigure, logs: WrkFigure, logsRaw: WrkFigure, half: WrkFigure, target: number, mem: Mem, cachedBytes: number, logsBytes: number): string[] {
  const f = (n: number, d = 0): string => n.toFixed(d);
  // CPU µs per request: what each server spent, whatever share of its core the machine left it.
  const us = (x: WrkFigure): number => (x.serverCpu * 1e6) / x.reqPerSec;
  const row = (name: string, bytes: number, a: WrkFigure, b: WrkFigure): string =>
    `| ${name} | ${bytes} B | ${f(a.reqPerSec)} | ${f(a.p50ms, 2)} / ${f(a.p99ms, 2)} ms | ${f(a.serverCpu, 2)} / ${f(a.wrkCpu, 2)} | ${f(us(a), 1)} | ${f(b.reqPerSec)} | ${f(b.serverCpu, 2)} / ${f(b.wrkCpu, 2)} | ${f(us(b), 1)} | **${f(a.reqPerSec / b.reqPerSec, 3)}** | ${f(us(b) / us(a), 3)} |`;
  const m = (what: string, k: keyof Mem): string => `| ${what} | ${f(mem[k].bodyMiB, 1)} MiB | ${mem[k].streamed ? 'yes' : 'no'} | ${f(mem[k].growthMiB, 1)} MiB |`;
  return [
    '# Serving bench (issue 18)',
    '',
    `Run: ${new Date().toISOString()}, \`node --import tsx bench/serving-bench.ts ${SECONDS}\`; ${EVENTS} demo events ingested over HTTP. Server and raw uWS peer pinned to core 0 (\`taskset -c 0\`), wrk -t1 -c${CONNECTIONS} pinned to core 1, ${SECONDS} s per run. CPU columns are CPU seconds ÷ wall seconds of the server and of wrk during the run (1.00 = one core busy): the side near 1.00 is the one that saturated. Load average at the start: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} (the machine is shared; figures move with it).`,
    '',
    '| request | body | ringql req/s | p50 / p99 | CPU server / wrk | ringql CPU µs/req | raw uWS req/s | CPU raw / wrk | raw CPU µs/req | ringql ÷ raw (req/s) | raw ÷ ringql (CPU µs/req) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    row('usage.api-counts hourly (cached, sync hit path)', cachedBytes, cached, cachedRaw),
    row('logs.all default, iso_timestamp_start rotated (computed each time)', logsBytes, logs, logsRaw),
    '',
    'When neither the server nor wrk is near 1.00 CPU, neither saturated: the shared machine\'s scheduler was the limit, and the req/s ratio says more about it than about ringql. The CPU-per-request ratio (the last column) is then the better measure of ringql\'s own cost against raw uWS.',
    '',
    `p99 of the cached path at half its maximum rate: wrk with a Lua \`delay()\` (16 connections, ${f((16 * 1000) / target, 2)} ms between requests per connection; wrk2 is not available) gave ${f(half.reqPerSec)} req/s (target ${f(target)}), p50 ${f(half.p50ms, 3)} ms, **p99 ${f(half.p99ms, 3)} ms** (wrk measures from each send, so this does not correct for coordinated omission).`,
    '',
    `Peak resident growth of the server while one answer of 10 000 edge rows (max_limit 10 000 is the most an endpoint may return, so 100k-row answers cannot be asked for over HTTP) is read, each in a fresh server holding ${MEMORY_EVENTS} events (VmHWM reset through /proc/pid/clear_refs, minus VmRSS before):`,
    '',
    '| answer | body | streamed | peak RSS growth |',
    '|---|---|---|---|',
    m('NDJSON, uncached (streamed)', 'ndjson'),
    m('CSV, uncached (streamed)', 'csv'),
    m('NDJSON, cached endpoint (built whole, kept)', 'whole'),
  ];
}

main().catch((err: unknown) => {
  process.stderr.write(`serving bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
