// The serving bench of issue 18: ringql (pinned to core 0) against raw uWebSockets.js serving the same
// bytes (also core 0), wrk on core 1; cached usage.api-counts, logs.all computed per request, p99 at half
// the cached maximum rate (open loop, C generator), over several rounds, and resident-memory growth of a streamed
// NDJSON/CSV answer. Writes bench/RESULTS-serving.md.   Run: node --import tsx bench/serving-bench.ts [seconds] [rounds]

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureWrk, luaScript, wrk, type WrkFigure } from './serving-load.ts';
import { buildOpenLoopC, fifoMaxRate, openLoopC, type OpenLoopCFigure } from './open-loop-c.ts';
import { api, pinBench, startRawPinned, startRingqlPinned, TOKEN } from './serving-server.ts';

const SECONDS = Number(process.argv[2] ?? 8);
const ROUNDS = Number(process.argv[3] ?? 3);
const EVENTS = 100_000;
/** Enough for 10 000 edge rows (about a third of the demo events are edge events). */
const MEMORY_EVENTS = 40_000;
const CONNECTIONS = 32;
const root = new URL('..', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'ringql-serving-'));
const say = (s: string): void => void process.stderr.write(`serving bench: ${s}\n`);

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

/** One round: each request against ringql then raw uWS with the same wrk settings, then the open-loop p99. */
export interface Round {
  cached: WrkFigure;
  cachedRaw: WrkFigure;
  logs: WrkFigure;
  logsRaw: WrkFigure;
  /** ringql, then raw uWS as the peer, open loop at `target` (bench/open-loop.c, isolated). */
  half: OpenLoopCFigure;
  halfRaw: OpenLoopCFigure;
  target: number;
}

export interface ServingFigures {
  seconds: number;
  rounds: Round[];
  mem: Mem;
  cachedBytes: number;
  logsBytes: number;
  load: { start: string; end: string };
}

const loadavg = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** `rounds` rounds of the four wrk runs and the open-loop p99 (C generator), then the streamed-answer memory. */
export async function servingBench(seconds: number, roundCount: number): Promise<ServingFigures> {
  await ensureWrk();
  await buildOpenLoopC();
  pinBench();
  const start = loadavg();
  const { server, base } = await startServer(EVENTS);
  const raws: ChildProcess[] = [];
  try {
    const project = 'default';
    const cached = `/api/endpoints/query/usage.api-counts?interval=hourly&project=${project}`;
    const logs = `/api/endpoints/query/logs.all?project=${project}`;
    await api(base, cached);
    const c = await api(base, cached);
    const l = await api(base, logs);
    if (c.status !== 200 || l.status !== 200 || l.body.length < 1000) throw new Error(`warm-up answered ${c.status}/${l.status} (${l.body.length} B)`);
    say(`cached usage.api-counts: ${c.body.length} B, X-Cache ${c.headers.get('x-cache')}/${c.headers.get('x-cache-kind')}; logs.all ${l.body.length} B`);
    const rawCached = await startRawPinned(c.body, tmp);
    const rawLogs = await startRawPinned(l.body, tmp);
    raws.push(rawCached.raw, rawLogs.raw);
    const rotate = luaScript(tmp, { rotate: { param: 'iso_timestamp_start' } });
    const load = (url: string, pid: number, script?: string): Promise<WrkFigure> =>
      wrk(url, { seconds, connections: CONNECTIONS, core: 1, token: TOKEN, serverPid: pid, ...(script ? { script } : {}) });
    const rounds: Round[] = [];
    for (let i = 0; i < roundCount; i++) {
      say(`round ${i + 1} of ${roundCount}`);
      const r = {
        cached: await load(base + cached, server.pid!),
        cachedRaw: await load(rawCached.base + cached, rawCached.raw.pid!),
        logs: await load(base + logs, server.pid!, rotate),
        logsRaw: await load(rawLogs.base + logs, rawLogs.raw.pid!, rotate),
      };
      // Half of the cached maximum, open loop (bench/open-loop.c), on wrk's core; that maximum measured as
      // p99-half-rate.ts does (server and wrk real-time), not the row above, which the machine's load lowers.
      const max = await fifoMaxRate(base + cached, { seconds, connections: CONNECTIONS, core: 1, token: TOKEN, serverPid: server.pid! });
      const target = Math.round(max.reqPerSec / 2);
      const o = { rate: target, seconds, connections: 16, core: 1, token: TOKEN };
      const half = await openLoopC(base + cached, { ...o, serverPid: server.pid! });
      const halfRaw = await openLoopC(rawCached.base + cached, { ...o, serverPid: rawCached.raw.pid! });
      rounds.push({ ...r, half, halfRaw, target });
    }
    server.kill('SIGTERM');
    const streamed = { name: 'bench.stream', cache_duration_seconds: 0 };
    const mem = {
      ndjson: await memoryRun(streamed, 'application/x-ndjson'),
      csv: await memoryRun(streamed, 'text/csv'),
      whole: await memoryRun({ name: 'bench.whole', cache_duration_seconds: 60 }, 'application/x-ndjson'),
    };
    return { seconds, rounds, mem, cachedBytes: c.body.length, logsBytes: l.body.length, load: { start, end: loadavg() } };
  } finally {
    server.kill('SIGTERM');
    for (const r of raws) r.kill('SIGKILL');
  }
}

async function main(): Promise<void> {
  const f = await servingBench(SECONDS, ROUNDS);
  const lines = report(f.rounds, f.mem, f.cachedBytes, f.logsBytes);
  const out = join(root, 'bench', 'RESULTS-serving.md');
  writeFileSync(out, lines.join('\n') + '\n');
  process.stdout.write(lines.join('\n') + '\n');
  say(`wrote ${out}`);
}

export type Mem = Record<'ndjson' | 'csv' | 'whole', { growthMiB: number; bodyMiB: number; streamed: boolean }>;

const f = (n: number, d = 0): string => n.toFixed(d);
/** CPU µs per request: what a server spent, whatever share of its core the machine left it. */
const us = (x: WrkFigure): number => (x.serverCpu * 1e6) / x.reqPerSec;
/** Median and range of a list, as `median (min–max)`. */
function spread(xs: number[], d: number): string {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  return `${f(mid, d)} (${f(s[0]!, d)}–${f(s[s.length - 1]!, d)})`;
}

function report(rounds: Round[], mem: Mem, cachedBytes: number, logsBytes: number): string[] {
  const row = (name: string, i: number, a: WrkFigure, b: WrkFigure): string =>
    `| ${name} | ${i + 1} | ${f(a.reqPerSec)}${a.non2xx > 0 ? ` (${a.non2xx} non-2xx left out)` : ''} | ${f(a.p50ms, 2)} / ${f(a.p99ms, 2)} ms | ${f(a.serverCpu, 2)} / ${f(a.wrkCpu, 2)} | ${f(us(a), 1)} | ${f(b.reqPerSec)} | ${f(b.serverCpu, 2)} / ${f(b.wrkCpu, 2)} | ${f(us(b), 1)} | **${f(a.reqPerSec / b.reqPerSec, 3)}** | ${f(us(b) / us(a), 3)} |`;
  const m = (what: string, k: keyof Mem): string => `| ${what} | ${f(mem[k].bodyMiB, 1)} MiB | ${mem[k].streamed ? 'yes' : 'no'} | ${f(mem[k].growthMiB, 1)} MiB |`;
  const cachedName = `usage.api-counts hourly, cached (sync hit path), ${cachedBytes} B`;
  const logsName = `logs.all default, iso_timestamp_start rotated (computed each time), ${logsBytes} B`;
  const ol = (h: OpenLoopCFigure, t: number, i: number, who: string): string =>
    `| ${i + 1} | ${who} (${h.serverSched}) | ${t} | ${f(h.reqPerSec)} | ${f(h.p50ms, 3)} | **${f(h.p99ms, 3)}** | ${f(h.p999ms, 2)} | ${f(h.maxms, 1)} | ${f(h.p99FromSendMs, 3)} | ${f(h.lateP99ms, 3)} / ${f(h.readLagP99ms, 3)} (${h.sched}) | ${f(h.serverWaitMsPerS, 1)} | ${f(h.serverCpu, 2)} / ${f(h.cpu, 2)} |`;
  return [
    '# Serving bench (issue 18)',
    '',
    `Run: ${new Date().toISOString()}, \`node --import tsx bench/serving-bench.ts ${SECONDS} ${ROUNDS}\`; ${EVENTS} demo events ingested over HTTP. Server and raw uWS peer pinned to core 0 (\`taskset -c 0\`), wrk -t1 -c${CONNECTIONS} pinned to core 1, ${SECONDS} s per run, ${ROUNDS} rounds (each round measures ringql and then raw uWS for each request, then the open-loop p99). CPU columns are CPU seconds ÷ wall seconds of the server and of wrk during the run (1.00 = one core busy): the side near 1.00 is the one that saturated. Load average at the end: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} (the machine is shared with other agents; figures move with it).`,
    '',
    '| request | round | ringql req/s | p50 / p99 | CPU server / wrk | ringql CPU µs/req | raw uWS req/s | CPU raw / wrk | raw CPU µs/req | ringql ÷ raw (req/s) | raw ÷ ringql (CPU µs/req) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rounds.map((r, i) => row(cachedName, i, r.cached, r.cachedRaw)),
    ...rounds.map((r, i) => row(logsName, i, r.logs, r.logsRaw)),
    '',
    '| measure | median (min–max) over the rounds | target |',
    '|---|---|---|',
    `| cached usage.api-counts, ringql ÷ raw uWS (req/s) | **${spread(rounds.map((r) => r.cached.reqPerSec / r.cachedRaw.reqPerSec), 3)}** | ≥ 0.65 |`,
    `| … the same by CPU µs per request (raw ÷ ringql) | ${spread(rounds.map((r) => us(r.cachedRaw) / us(r.cached)), 3)} | |`,
    `| logs.all computed, ringql ÷ raw uWS (req/s) | **${spread(rounds.map((r) => r.logs.reqPerSec / r.logsRaw.reqPerSec), 3)}** | ≥ 0.35 |`,
    `| … the same by CPU µs per request (raw ÷ ringql) | ${spread(rounds.map((r) => us(r.logsRaw) / us(r.logs)), 3)} | |`,
    `| p99 of the cached path at half its maximum rate (open loop) | **${spread(rounds.map((r) => r.half.p99ms), 3)} ms** | ≤ 2 ms |`,
    `| … raw uWS at the same rate, same generator | ${spread(rounds.map((r) => r.halfRaw.p99ms), 3)} ms | |`,
    '',
    'When neither the server nor wrk is near 1.00 CPU, neither saturated: the shared machine\'s scheduler was the limit, and the req/s ratio says more about it than about ringql. The CPU-per-request ratio is then the better measure of ringql\'s own cost against raw uWS.',
    '',
    'p99 at half the cached maximum (measured each round with wrk -c32, the server\'s threads in SCHED_RR and wrk in SCHED_FIFO, so the machine\'s load does not lower it; the throughput row above runs without that): `bench/open-loop.c` (the C form of `bench/open-loop.ts`, which cannot hold 50k req/s), pinned to core 1, 16 keep-alive connections, one request in flight per connection. It is open loop: request k is due at start + k / rate whatever the server does, and latency counts from the due time to the last byte of the answer, so a stall of the server shows up in the percentiles instead of pausing the load (wrk\'s Lua `delay()` measures from each send and its delay is whole milliseconds, so it could neither hold the rate nor see queueing; wrk2 is not installed). The generator runs in its own session (autogroup) with SCHED_FIFO when the bench runs as root, and sleeps until each due time; all it adds to the latency is shown apart: *late* (due → it saw the request due) and *read lag* (answer in the socket, by the kernel\'s timestamp → read), p99 each. During each open-loop run (and that maximum) all the server\'s threads are in SCHED_RR priority 10 when the bench runs as root, ringql and raw uWS alike (*server* column; bench/server-sched.ts), so other processes on core 0 cannot preempt them (the throughput rows above run without it); the bench\'s own node process is pinned to core 1. *Server waited for CPU*: ms per second the server\'s main thread (the event loop) was runnable but not running (schedstat), time the machine held answers back. Raw uWS serving the same bytes is measured at the same rate as the peer.',
    '',
    '| round | server | target req/s | answered req/s | p50 ms | p99 ms | p99.9 ms | max ms | p99 from send ms | generator late / read lag p99 ms (scheduling) | server waited for CPU ms/s | CPU server / generator |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rounds.flatMap((r, i) => [ol(r.half, r.target, i, 'ringql'), ol(r.halfRaw, r.target, i, 'raw uWS')]),
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

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    process.stderr.write(`serving bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
