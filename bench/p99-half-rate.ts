// Issue 18's p99 target alone: the cached usage.api-counts path's maximum rate (wrk, as serving-bench),
// then open-loop runs at half of it (bench/open-loop.ts in Node, bench/open-loop.c in C) against ringql and,
// as each generator's own floor, against raw uWS serving the same bytes. Prints markdown tables.   Run: node --import tsx bench/p99-half-rate.ts [seconds] [rounds]

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenLoopFigure } from './open-loop.ts';
import { ensureWrk, openLoopRun, wrk, type WrkFigure } from './serving-load.ts';
import { buildOpenLoopC, openLoopC } from './open-loop-c.ts';
import { api, startRawPinned, startRingqlPinned, TOKEN } from './serving-server.ts';

const SECONDS = Number(process.argv[2] ?? 8);
const ROUNDS = Number(process.argv[3] ?? 5);
const EVENTS = 100_000;
const PATH = '/api/endpoints/query/usage.api-counts?interval=hourly&project=default';
const tmp = mkdtempSync(join(tmpdir(), 'ringql-p99-'));
const say = (s: string): void => void process.stderr.write(`p99 bench: ${s}\n`);
const loadavg = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

type Half = OpenLoopFigure & { serverCpu: number };
type Gen = 'node' | 'c';
interface Round { max: WrkFigure; target: number; ringql: Record<Gen, Half>; raw: Record<Gen, Half>; load: string }

/** Both generators at `rate` against one server. */
async function halfRuns(base: string, rate: number, serverPid: number): Promise<Record<Gen, Half>> {
  const o = { rate, seconds: SECONDS, connections: 16, core: 1, token: TOKEN, serverPid };
  return { node: await openLoopRun(base + PATH, o), c: await openLoopC(base + PATH, o) };
}

async function main(): Promise<void> {
  await ensureWrk();
  await buildOpenLoopC();
  const { server, base } = await startRingqlPinned(tmp, EVENTS);
  let raw: ChildProcess | undefined;
  try {
    await api(base, PATH);
    const c = await api(base, PATH);
    if (c.status !== 200) throw new Error(`warm-up answered ${c.status}`);
    say(`cached answer ${c.body.length} B, X-Cache ${c.headers.get('x-cache')}/${c.headers.get('x-cache-kind')}`);
    const r = await startRawPinned(c.body, tmp);
    raw = r.raw;
    const rounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const load = loadavg();
      const max = await wrk(base + PATH, { seconds: SECONDS, connections: 32, core: 1, token: TOKEN, serverPid: server.pid! });
      const target = Math.round(max.reqPerSec / 2);
      const ringql = await halfRuns(base, target, server.pid!);
      const rawHalf = await halfRuns(r.base, target, raw.pid!);
      rounds.push({ max, target, ringql, raw: rawHalf, load });
      say(`round ${i + 1}: max ${max.reqPerSec.toFixed(0)} req/s, p99 at ${target} (node / C generator): ringql ${ringql.node.p99ms.toFixed(3)} / ${ringql.c.p99ms.toFixed(3)} ms, raw ${rawHalf.node.p99ms.toFixed(3)} / ${rawHalf.c.p99ms.toFixed(3)} ms`);
    }
    process.stdout.write(report(rounds, c.body.length).join('\n') + '\n');
  } finally {
    server.kill('SIGTERM');
    raw?.kill('SIGKILL');
  }
}

const f = (n: number, d = 0): string => n.toFixed(d);

function median(xs: number[]): { mid: number; lo: number; hi: number } {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  return { mid, lo: s[0]!, hi: s[s.length - 1]! };
}

function report(rounds: Round[], bytes: number): string[] {
  const row = (r: Round, i: number, who: 'ringql' | 'raw', g: Gen): string => {
    const h = r[who][g];
    return `| ${i + 1} | ${who === 'ringql' ? 'ringql' : 'raw uWS'} | ${g === 'c' ? 'C' : 'Node'} | ${f(r.max.reqPerSec)} (${f(r.max.serverCpu, 2)} / ${f(r.max.wrkCpu, 2)}) | ${r.target} | ${f(h.reqPerSec)} | ${f(h.p50ms, 3)} | **${f(h.p99ms, 3)}** | ${f(h.p999ms, 3)} | ${f(h.maxms, 2)} | ${f(h.p99FromSendMs, 3)} | ${f(h.sendLagP99ms, 3)} | ${f(h.serverCpu, 2)} / ${f(h.cpu, 2)} | ${r.load} |`;
  };
  const m = (xs: number[]): string => { const s = median(xs); return `${f(s.mid, 3)} (${f(s.lo, 3)}–${f(s.hi, 3)})`; };
  return [
    `Run: ${new Date().toISOString()}, \`node --import tsx bench/p99-half-rate.ts ${SECONDS} ${ROUNDS}\`; ${EVENTS} demo events; cached answer ${bytes} B. Server and raw uWS on core 0, wrk and the open-loop generator on core 1; ${SECONDS} s per run. Load average at the end: ${loadavg()}.`,
    '',
    '| round | server | generator | max req/s by wrk -c32 (CPU server / wrk) | target req/s | answered req/s | p50 ms | p99 ms | p99.9 ms | max ms | p99 from send ms | generator lag p99 ms | CPU server / generator | load avg before |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rounds.flatMap((r, i) => [row(r, i, 'ringql', 'c'), row(r, i, 'raw', 'c'), row(r, i, 'ringql', 'node'), row(r, i, 'raw', 'node')]),
    '',
    '| measure over the rounds | median (min–max) |',
    '|---|---|',
    ...(['c', 'node'] as const).flatMap((g) => {
      const n = g === 'c' ? 'C generator' : 'Node generator';
      return [
        `| ringql p99 at half its max rate, ${n}, ms | **${m(rounds.map((r) => r.ringql[g].p99ms))}** |`,
        `| raw uWS p99 at the same rate, ${n}, ms | ${m(rounds.map((r) => r.raw[g].p99ms))} |`,
        `| ${n} lag p99 against ringql / raw uWS, ms | ${m(rounds.map((r) => r.ringql[g].sendLagP99ms))} / ${m(rounds.map((r) => r.raw[g].sendLagP99ms))} |`,
      ];
    }),
    `| ringql max req/s | ${m(rounds.map((r) => r.max.reqPerSec))} |`,
  ];
}

main().catch((err: unknown) => {
  process.stderr.write(`p99 bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
