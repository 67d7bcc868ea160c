// Issue 18's p99 target alone: the cached usage.api-counts path's maximum rate (wrk, as serving-bench),
// then the C open-loop generator (bench/open-loop.c) at half of it against ringql and, as the peer in the
// same run, raw uWS serving the same bytes; isolated generator (the measure) and the old plain loop beside it.
//   Run: node --import tsx bench/p99-half-rate.ts [seconds] [rounds] [modes, default isolated,plain]   (prints markdown)

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureWrk } from './serving-load.ts';
import { buildOpenLoopC, GENERATOR_MODES, fifoMaxRate, MEASURE_SCHED, openLoopC, type GeneratorMode, type OpenLoopCFigure } from './open-loop-c.ts';
import { SERVER_SCHEDS, type ServerSched } from './server-sched.ts';
import { p99Report, type P99Round } from './p99-report.ts';
import { api, pinBench, startRawPinned, startRingqlPinned, TOKEN } from './serving-server.ts';

const SECONDS = Number(process.argv[2] ?? 8);
const ROUNDS = Number(process.argv[3] ?? 5);
// A mode is a generator mode, optionally with "/<server scheduling>" (bench/server-sched.ts: all, main,
// main+nice, other); without it the servers are scheduled as the measure does (MEASURE_SCHED).
const MODES = (process.argv[4] ?? 'isolated,plain').split(',');
const generatorMode = (m: string): GeneratorMode => m.split('/')[0] as GeneratorMode;
const serverSched = (m: string): ServerSched => (m.split('/')[1] ?? MEASURE_SCHED) as ServerSched;
for (const m of MODES) if (!GENERATOR_MODES.includes(generatorMode(m)) || !SERVER_SCHEDS.includes(serverSched(m))) throw new Error(`p99 bench: mode ${m} is not one of ${GENERATOR_MODES.join(', ')}, each optionally with /${SERVER_SCHEDS.join(', /')}`);
const EVENTS = 100_000;
const PATH = '/api/endpoints/query/usage.api-counts?interval=hourly&project=default';
const tmp = mkdtempSync(join(tmpdir(), 'ringql-p99-'));
const say = (s: string): void => void process.stderr.write(`p99 bench: ${s}\n`);
const loadavg = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** The generator in `mode` at `rate` against one server (the server scheduled as the mode says). */
function half(base: string, rate: number, serverPid: number, mode: string): Promise<OpenLoopCFigure> {
  return openLoopC(base + PATH, { rate, seconds: SECONDS, connections: 16, core: 1, token: TOKEN, serverPid, mode: generatorMode(mode), sched: serverSched(mode) });
}

async function main(): Promise<void> {
  await ensureWrk();
  await buildOpenLoopC();
  pinBench();
  const { server, base } = await startRingqlPinned(tmp, EVENTS);
  let raw: ChildProcess | undefined;
  try {
    await api(base, PATH);
    const c = await api(base, PATH);
    if (c.status !== 200) throw new Error(`warm-up answered ${c.status}`);
    say(`cached answer ${c.body.length} B, X-Cache ${c.headers.get('x-cache')}/${c.headers.get('x-cache-kind')}`);
    const r = await startRawPinned(c.body, tmp);
    raw = r.raw;
    const rounds: P99Round[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const load = loadavg();
      const max = await fifoMaxRate(base + PATH, { seconds: SECONDS, connections: 32, core: 1, token: TOKEN, serverPid: server.pid! });
      const target = Math.round(max.reqPerSec / 2);
      const ringql: P99Round['ringql'] = {};
      const rawHalf: P99Round['raw'] = {};
      for (const m of MODES) {
        ringql[m] = await half(base, target, server.pid!, m);
        rawHalf[m] = await half(r.base, target, raw.pid!, m);
        const g = ringql[m];
        say(`round ${i + 1} (load ${load}): max ${max.reqPerSec.toFixed(0)} req/s; ${m} generator at ${target} req/s: p99 ringql ${g.p99ms.toFixed(3)} ms (server ${g.serverSched}, generator late p99 ${g.lateP99ms.toFixed(3)}, read lag p99 ${g.readLagP99ms.toFixed(3)}; server waited ${g.serverWaitMsPerS.toFixed(1)} ms/s for a CPU), raw uWS ${rawHalf[m].p99ms.toFixed(3)} ms`);
      }
      rounds.push({ max, target, ringql, raw: rawHalf, load });
    }
    const head = `Run: ${new Date().toISOString()}, \`node --import tsx bench/p99-half-rate.ts ${SECONDS} ${ROUNDS} ${MODES.join(',')}\`; ${EVENTS} demo events; cached answer ${c.body.length} B. Load average at the end: ${loadavg()}.`;
    process.stdout.write([head, '', ...p99Report(rounds, MODES)].join('\n') + '\n');
  } finally {
    server.kill('SIGTERM');
    raw?.kill('SIGKILL');
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`p99 bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
