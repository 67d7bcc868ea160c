// Load generation for the serving bench (issue 18): wrk pinned to its own core with a Lua script
// (rotating parameter, or a fixed delay per request for a target rate), its CPU time measured, and the
// server's CPU time read from /proc so it is clear which side saturated.

import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { OpenLoopFigure } from './open-loop.ts';

const run = promisify(execFile);

export interface WrkFigure {
  reqPerSec: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
  /** wrk's CPU time ÷ wall time (1.0 = its core saturated). */
  wrkCpu: number;
  /** The server process's CPU time ÷ wall time over the same run. */
  serverCpu: number;
}

/** Installs wrk with apt-get when it is missing (CI runs as root with Debian reachable), saying so. */
export async function ensureWrk(): Promise<void> {
  try {
    await run('wrk', ['--version']);
    return;
  } catch (e) {
    if (String((e as { stdout?: string }).stdout ?? '').startsWith('wrk')) return;
  }
  process.stderr.write('serving bench: wrk is missing; installing it with apt-get install -y wrk\n');
  await run('apt-get', ['install', '-y', 'wrk'], { maxBuffer: 1 << 24 });
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command: state is field 3, utime 14 and stime 15 (1-based), in clock ticks (100 Hz on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A wrk Lua script: each request's `param` takes a new value (so no cache can answer), or each connection waits `delayMs` between requests. */
export function luaScript(dir: string, opts: { rotate?: { param: string }; delayMs?: number }): string {
  const lines: string[] = ['local i = 0'];
  if (opts.rotate) {
    lines.push(
      'request = function()',
      '  i = i + 1',
      `  local sep = string.find(wrk.path, "?", 1, true) and "&" or "?"`,
      `  return wrk.format(nil, wrk.path .. sep .. "${opts.rotate.param}=" .. string.format("2020-01-01T00:00:00.%06dZ", i % 1000000))`,
      'end',
    );
  }
  if (opts.delayMs !== undefined) lines.push(`delay = function() return ${opts.delayMs.toFixed(3)} end`);
  const file = join(dir, `wrk-${process.pid}-${Math.random().toString(36).slice(2)}.lua`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/**
 * Successful answers per second: wrk's Requests/sec counts refusals too (e.g. 503 "overloaded" from the
 * query limit, which cost the server next to nothing), so they are taken out in proportion.
 */
function okPerSec(stdout: string): number {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN);
  const total = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? NaN);
  const bad = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
  return total > 0 ? rps * (1 - bad / total) : rps;
}

/** wrk on core `core`, one thread, `connections` connections, for `seconds`; `serverPid` is measured meanwhile. With `fifo`, wrk runs in SCHED_FIFO at that priority. */
export async function wrk(url: string, o: { seconds: number; connections: number; core: number; token: string; script?: string; serverPid: number; fifo?: number }): Promise<WrkFigure> {
  const args = ['-c', String(o.core), 'wrk', '-t1', `-c${o.connections}`, `-d${o.seconds}s`, '--latency', '-H', `X-API-KEY: ${o.token}`];
  if (o.script) args.push('-s', o.script);
  args.push(url);
  const cpu0 = cpuSeconds(o.serverPid);
  const t0 = performance.now();
  // /usr/bin/time reports wrk's own user and system seconds on stderr.
  const cmd = o.fifo ? ['chrt', '-f', String(o.fifo), 'taskset', ...args] : ['taskset', ...args];
  const { stdout, stderr } = await run('/usr/bin/time', ['-f', 'TIME %U %S', ...cmd], { maxBuffer: 1 << 22 });
  const wall = (performance.now() - t0) / 1000;
  const serverCpu = (cpuSeconds(o.serverPid) - cpu0) / wall;
  const t = /TIME ([\d.]+) ([\d.]+)/.exec(stderr);
  const wrkCpu = t ? (Number(t[1]) + Number(t[2])) / wall : NaN;
  const pct = (p: string): number => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(stdout);
    if (!m) return NaN;
    const v = Number(m[1]);
    return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
  };
  return {
    reqPerSec: okPerSec(stdout), p50ms: pct('50'), p99ms: pct('99'),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0), wrkCpu, serverCpu,
  };
}

/** bench/open-loop.ts on core `core` at `rate` req/s (see there); the server's CPU ÷ wall time alongside. */
export async function openLoopRun(url: string, o: { rate: number; seconds: number; connections: number; core: number; token: string; serverPid: number }): Promise<OpenLoopFigure & { serverCpu: number }> {
  const root = new URL('..', import.meta.url).pathname;
  const cpu0 = cpuSeconds(o.serverPid);
  const t0 = performance.now();
  const { stdout } = await run('taskset', ['-c', String(o.core), process.execPath, '--import', 'tsx', 'bench/open-loop.ts', url, String(o.rate), String(o.seconds), String(o.connections), o.token], { cwd: root, maxBuffer: 1 << 22 });
  const serverCpu = (cpuSeconds(o.serverPid) - cpu0) / ((performance.now() - t0) / 1000);
  return { ...(JSON.parse(stdout) as OpenLoopFigure), serverCpu };
}
