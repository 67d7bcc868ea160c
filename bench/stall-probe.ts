// Finds what stalls ringql's cached path (issue 18): a server with bench/stall-watch.ts preloaded and
// 100k demo events, then open-loop C-generator runs at RATE req/s; prints each run's figures and the
// stalls the watch logged during it, its threads' CPU time, and the same against raw uWS (watched too)
// serving the same bytes. Extra ringql env: STALL_PROBE_ENV='A=1,B=2'; extra node flags: STALL_PROBE_NODE.
// Run: node --import tsx bench/stall-probe.ts [rate] [seconds] [runs]

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { OpenLoopFigure } from './open-loop.ts';
import { api, ingest, startPinned, TOKEN } from './serving-server.ts';
import { freePort } from './http-bench.ts';

const RATE = Number(process.argv[2] ?? 45_000);
const SECONDS = Number(process.argv[3] ?? 6);
const RUNS = Number(process.argv[4] ?? 3);
const PATH = '/api/endpoints/query/usage.api-counts?interval=hourly&project=default';
const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'ringql-stall-'));
const gen = join(tmp, 'open-loop');
const nodeFlags = (process.env.STALL_PROBE_NODE ?? '').split(' ').filter(Boolean);
const watch = ['--import', 'tsx', '--import', './bench/stall-watch-main.mjs'];
const extraEnv = Object.fromEntries((process.env.STALL_PROBE_ENV ?? '').split(',').filter(Boolean).map((kv) => kv.split('=') as [string, string]));

/** Gaps of 10 ms or more, split by the main thread's schedstat: on the CPU (own work), runnable but waiting for the CPU, or neither (blocked). */
function summary(lines: string[]): string {
  const gaps = lines.map((l) => /gap ([\d.]+) ms: main thread on cpu ([\d.]+) ms, waiting for it ([\d.]+) ms/.exec(l)).filter((m) => m && Number(m[1]) >= 10) as RegExpExecArray[];
  const own = gaps.filter((m) => Number(m[2]) >= Number(m[1]) / 2);
  const waited = gaps.filter((m) => Number(m[3]) >= Number(m[1]) / 2);
  const other = gaps.filter((m) => !own.includes(m) && !waited.includes(m));
  const max = (xs: RegExpExecArray[]): string => xs.reduce((a, m) => Math.max(a, Number(m[1])), 0).toFixed(1);
  const onCpu = lines.map((l) => /gap [\d.]+ ms: main thread on cpu ([\d.]+) ms/.exec(l)).reduce((a, m) => Math.max(a, m ? Number(m[1]) : 0), 0);
  const out = [`  gaps >= 10 ms: ${gaps.length}; on the CPU ${own.length} (max ${max(own)} ms), waiting for the CPU ${waited.length} (max ${max(waited)} ms), neither ${other.length} (max ${max(other)} ms); most main-thread CPU in one gap over 4 ms: ${onCpu.toFixed(1)} ms`];
  for (const l of lines) if (!l.includes(' gap ') || [...own, ...other].some((m) => l.includes(m[0]))) out.push(`  ${l}`);
  return out.join('\n') + '\n';
}

/** CPU ms of process `pid`'s main thread and of its other threads (V8 helpers, libuv pool). */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const name = Number(tid) === pid ? 'main' : 'other threads';
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
  }
  return out;
}

function cpuDelta(a: Map<string, number>, b: Map<string, number>): string {
  return [...b].map(([k, v]) => [k, v - (a.get(k) ?? 0)] as const).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${v}`).join(', ');
}

/** One open-loop run against `port`, with what `child`'s watch logged meanwhile. */
async function probeRun(who: string, child: ChildProcess, port: number, log: string): Promise<void> {
  const from = existsSync(log) ? statSync(log).size : 0;
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const cpu0 = threadCpu(child.pid!);
  const { stdout } = await run('taskset', ['-c', '1', gen, String(port), PATH, String(RATE), String(SECONDS), '16', TOKEN], { maxBuffer: 1 << 20 });
  const f = JSON.parse(stdout) as OpenLoopFigure;
  process.stdout.write(`${who} (load ${load}): ${f.reqPerSec.toFixed(0)} req/s, p50 ${f.p50ms.toFixed(3)} p99 ${f.p99ms.toFixed(3)} max ${f.maxms.toFixed(2)} ms; thread CPU ms: ${cpuDelta(cpu0, threadCpu(child.pid!))}\n`);
  process.stdout.write(summary(readFileSync(log).subarray(from).toString().split('\n').filter(Boolean)));
}

async function main(): Promise<void> {
  await run('gcc', ['-O2', '-o', gen, join(root, 'bench', 'open-loop.c')]);
  const port = await freePort(), rawPort = await freePort();
  const log = join(tmp, 'ringql-stalls.log'), rawLog = join(tmp, 'raw-stalls.log');
  const env = { PORT: String(port), HOST: '127.0.0.1', RINGQL_DEMO: '0', RINGQL_ACCESS_TOKENS: TOKEN, RINGQL_STATE_DIR: join(tmp, 'state'), STALL_WATCH_OUT: log, ...extraEnv };
  const server = await startPinned(['src/main.ts'], env, /ringql listening on/, [...nodeFlags, ...watch]);
  let raw: ChildProcess | undefined;
  const base = `http://127.0.0.1:${port}`;
  try {
    await ingest(base, 100_000);
    const warm = await api(base, PATH);
    writeFileSync(join(tmp, 'body.bin'), warm.body);
    raw = await startPinned(['bench/raw-uws-server.ts', String(rawPort), join(tmp, 'body.bin')], { STALL_WATCH_OUT: rawLog }, /raw uWS listening/, [...nodeFlags, ...watch]);
    for (let i = 0; i < RUNS; i++) {
      await probeRun(`run ${i + 1} ringql`, server, port, log);
      await probeRun(`run ${i + 1} raw uWS`, raw, rawPort, rawLog);
    }
  } finally {
    server.kill('SIGTERM');
    raw?.kill('SIGKILL');
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`stall probe failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
