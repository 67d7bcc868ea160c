// The C open-loop generator (bench/open-loop.c) for the serving bench: built once with gcc (installed
// with apt-get when missing, saying so), run pinned to a core at a fixed rate; prints the figure of
// bench/open-loop.ts plus where the generator's own lag went, with the server's CPU and CPU wait alongside.

import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { OpenLoopFigure } from './open-loop.ts';
import { cpuSeconds, wrk, type WrkFigure } from './serving-load.ts';
import { SERVER_FIFO_PRIORITY, withServerSched, type ServerSched } from './server-sched.ts';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
let built: string | null = null;

/**
 * isolated: own session (autogroup), SCHED_FIFO when permitted, sleeps until due; plain: the old busy-polling
 * loop in the caller's session; session: plain in its own session; sleep: own session, sleeping, SCHED_OTHER.
 */
export type GeneratorMode = 'isolated' | 'sleep' | 'session' | 'plain';
export const GENERATOR_MODES: readonly GeneratorMode[] = ['isolated', 'sleep', 'session', 'plain'];

export interface OpenLoopCFigure extends OpenLoopFigure {
  mode: GeneratorMode;
  /** The generator's session ("own" or "parent's"), scheduling class ("fifo", or "other (why)") and pacing. */
  session: string;
  sched: string;
  pacing: string;
  /** Due → the generator saw it due, p99 ms: its own lateness (descheduled or oversleeping). */
  lateP99ms: number;
  /** Seen due → written, p99 ms: waiting for one of the connections to come free, i.e. queued behind the server. */
  connWaitP99ms: number;
  /** Kernel receive timestamp → read by the generator, p99 and max ms: how long answers sat unread. */
  readLagP99ms: number;
  readLagMaxMs: number;
  /** Latency from due time to the answer's arrival in the socket (kernel timestamp), without the read lag. */
  p99ArrivedMs: number;
  p999ArrivedMs: number;
  /** Generator: ms runnable but waiting for a CPU, and involuntary context switches, over the run. */
  runDelayMs: number;
  involuntarySwitches: number;
  /** Server: CPU seconds ÷ wall seconds, and ms its main thread (the event loop that answers) was runnable but waiting for a CPU, per second of run. */
  serverCpu: number;
  serverWaitMsPerS: number;
  /** The same for all its threads together (V8 and libuv helpers share its core). */
  serverThreadsWaitMsPerS: number;
  /** The server's scheduling during the run, as bench/server-sched.ts describes it. */
  serverSched: string;
}

/** Path of the built generator; gcc comes from apt-get when this machine lacks it. */
export async function buildOpenLoopC(): Promise<string> {
  if (built) return built;
  try {
    await run('gcc', ['--version']);
  } catch {
    process.stderr.write('serving bench: gcc is missing (needed for bench/open-loop.c); installing it with apt-get install -y gcc\n');
    await run('apt-get', ['install', '-y', 'gcc'], { maxBuffer: 1 << 24 });
  }
  const out = join(mkdtempSync(join(tmpdir(), 'ringql-open-loop-')), 'open-loop');
  await run('gcc', ['-O2', '-o', out, join(root, 'bench', 'open-loop.c')]);
  built = out;
  return out;
}

/** ms `pid`'s threads (only its main thread, the event loop, with `mainOnly`) have spent runnable but waiting for a CPU (schedstat's run_delay), so far. */
export function runDelayMs(pid: number, mainOnly = false): number {
  let ns = 0;
  for (const tid of mainOnly ? [String(pid)] : readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return ns / 1e6;
}

/** Warns once on stderr when the generator could not get what isolated mode asks for. */
let warned = false;
function warnIfNotIsolated(f: OpenLoopCFigure): void {
  if (warned || f.mode !== 'isolated' || (f.sched === 'fifo' && f.session === 'own')) return;
  warned = true;
  process.stderr.write(`serving bench: the C generator runs without full isolation (session ${f.session}, scheduling ${f.sched}); run as root for SCHED_FIFO\n`);
}

/**
 * The server's maximum rate for the p99's target (half of it): wrk -t1 on `core`, the server scheduled
 * as during the open-loop runs (MEASURE_SCHED) and wrk in SCHED_FIFO, so the machine's other load
 * lowers neither side's rate (for those seconds other processes get ~5 % of the cores: RT throttling).
 */
export async function fifoMaxRate(url: string, o: { seconds: number; connections: number; core: number; token: string; serverPid: number }): Promise<WrkFigure> {
  return (await withServerSched(o.serverPid, MEASURE_SCHED, () => wrk(url, { ...o, fifo: SERVER_FIFO_PRIORITY }))).value;
}

/** How the measure schedules the server during its p99 runs and its maximum (bench/server-sched.ts). */
export const MEASURE_SCHED: ServerSched = 'all';

/** The C generator on `core` at `rate` req/s against http://127.0.0.1:<port><path>; the server scheduled as `sched` (default MEASURE_SCHED) meanwhile. */
export async function openLoopC(url: string, o: { rate: number; seconds: number; connections: number; core: number; token: string; serverPid: number; mode?: GeneratorMode; sched?: ServerSched }): Promise<OpenLoopCFigure> {
  const mode = o.sched ?? MEASURE_SCHED;
  if (mode !== 'other') {
    const { value, sched } = await withServerSched(o.serverPid, mode, () => openLoopC(url, { ...o, sched: 'other' }));
    return { ...value, serverSched: sched };
  }
  const bin = await buildOpenLoopC();
  const u = new URL(url);
  const cpu0 = cpuSeconds(o.serverPid), wait0 = runDelayMs(o.serverPid, true), all0 = runDelayMs(o.serverPid);
  const t0 = performance.now();
  const args = ['-c', String(o.core), bin, u.port, u.pathname + u.search, String(o.rate), String(o.seconds), String(o.connections), o.token, o.mode ?? 'isolated'];
  const { stdout } = await run('taskset', args, { maxBuffer: 1 << 20 });
  const wall = (performance.now() - t0) / 1000;
  const f = {
    ...(JSON.parse(stdout) as Omit<OpenLoopCFigure, 'serverCpu' | 'serverWaitMsPerS' | 'serverThreadsWaitMsPerS' | 'serverSched'>),
    serverCpu: (cpuSeconds(o.serverPid) - cpu0) / wall,
    serverWaitMsPerS: (runDelayMs(o.serverPid, true) - wait0) / wall,
    serverThreadsWaitMsPerS: (runDelayMs(o.serverPid) - all0) / wall,
    serverSched: 'other',
  };
  warnIfNotIsolated(f);
  return f;
}
