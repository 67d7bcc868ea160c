// What is on the server's core during a p99 open-loop run (issue 18): per run, `perf sched` on core 0 (who
// ran there, how long the server's main thread waited to run and who ran meanwhile), the bench's own CPU,
// the server's GC pauses (--trace-gc) and its threads; ringql and raw uWS, main thread SCHED_OTHER and FIFO.
//   Run (as root, perf installed): node --import tsx bench/p99-core-probe.ts [rate] [seconds] [rounds]
//   Env: P99_PROBE_SCHEDS (default other,main,all,main+nice: bench/server-sched.ts), P99_PROBE_NODE (extra ringql node flags).

import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildOpenLoopC, openLoopC } from './open-loop-c.ts';
import type { ServerSched } from './server-sched.ts';
import { gcInWindow, type GcLine, parseGcLine } from './p99-gc-lines.ts';
import { coreSummary, type SchedRow, parseTimehist } from './p99-sched-rows.ts';
import { api, pinBench, startRawPinned, startRingqlPinned, TOKEN } from './serving-server.ts';

const RATE = Number(process.argv[2] ?? 30_000);
const SECONDS = Number(process.argv[3] ?? 5);
const ROUNDS = Number(process.argv[4] ?? 1);
const PATH = '/api/endpoints/query/usage.api-counts?interval=hourly&project=default';
const run = promisify(execFile);
const tmp = mkdtempSync(join(tmpdir(), 'ringql-core-probe-'));
const SCHEDS = (process.env.P99_PROBE_SCHEDS ?? 'other,main,all,main+nice').split(',') as ServerSched[];
const loadavg = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** CPU ms this process's threads have used so far, and the CPU each last ran on. */
function selfCpu(): { ms: number; cpus: string } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ms: (Number(f[11]) + Number(f[12])) * 10, cpus: readFileSync('/proc/self/status', 'utf8').match(/Cpus_allowed_list:\s*(\S+)/)?.[1] ?? '?' };
}

/** `perf sched record` on core 0 for as long as `during` runs; the timehist rows. */
async function recordCore0<T>(name: string, during: () => Promise<T>): Promise<{ value: T; rows: SchedRow[] }> {
  const file = join(tmp, `${name}.data`);
  const perf = spawn('perf', ['sched', 'record', '-C', '0', '-o', file], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 300));
  const value = await during();
  perf.kill('SIGINT');
  await new Promise((r) => perf.once('exit', r));
  const { stdout } = await run('perf', ['sched', 'timehist', '--state', '-i', file], { maxBuffer: 1 << 30 });
  return { value, rows: parseTimehist(stdout) };
}

async function probe(who: string, pid: number, base: string, fifo: ServerSched, gc: GcLine[] | null): Promise<void> {
  const self0 = selfCpu();
  let t0 = 0, t1 = 0;
  const { value: f, rows } = await recordCore0(`${who}-${fifo}-${Date.now()}`, async () => {
    t0 = Date.now();
    try {
      return await openLoopC(base + PATH, { rate: RATE, seconds: SECONDS, connections: 16, core: 1, token: TOKEN, serverPid: pid, sched: fifo });
    } finally {
      t1 = Date.now();
    }
  });
  const self1 = selfCpu();
  const lines = [
    `${who}, main thread ${f.serverSched}, ${RATE} req/s, load ${loadavg()}: p50 ${f.p50ms.toFixed(3)} p99 ${f.p99ms.toFixed(3)} p99.9 ${f.p999ms.toFixed(3)} max ${f.maxms.toFixed(2)} ms; server CPU ${f.serverCpu.toFixed(2)}, main thread waited ${f.serverWaitMsPerS.toFixed(1)} ms/s (all threads ${f.serverThreadsWaitMsPerS.toFixed(1)}); generator late p99 ${f.lateP99ms.toFixed(3)} ms`,
    `  bench process: ${self1.ms - self0.ms} ms CPU during the run, allowed on CPUs ${self1.cpus}`,
    ...coreSummary(rows, pid, process.pid),
  ];
  if (gc) lines.push(gcInWindow(gc, pid, t0, t1, f.reqPerSec));
  process.stdout.write(lines.join('\n') + '\n');
}

async function main(): Promise<void> {
  await buildOpenLoopC();
  pinBench();
  const { server, base } = await startRingqlPinned(tmp, 100_000, ['--trace-gc', ...(process.env.P99_PROBE_NODE ?? '').split(' ').filter(Boolean)]);
  const gc: GcLine[] = [];
  server.stdout!.on('data', (d: Buffer) => { for (const l of d.toString().split('\n')) { const g = parseGcLine(l); if (g) gc.push(g); } });
  let raw: Awaited<ReturnType<typeof startRawPinned>> | undefined;
  try {
    await api(base, PATH);
    const c = await api(base, PATH);
    raw = await startRawPinned(c.body, tmp);
    for (let i = 0; i < ROUNDS; i++) {
      for (const fifo of SCHEDS) {
        await probe('ringql', server.pid!, base, fifo, gc);
        await probe('raw uWS', raw.raw.pid!, raw.base, fifo, null);
      }
    }
  } finally {
    server.kill('SIGTERM');
    raw?.raw.kill('SIGKILL');
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`core probe failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
