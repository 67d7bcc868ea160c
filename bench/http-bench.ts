// HTTP helpers for the benches on loopback: a free port, and closed-loop load from wrk (a separate
// process; autocannon when wrk is missing).

import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';

const run = promisify(execFile);
const TOKEN = 'bench-token';

export interface LoadFigure {
  reqPerSec: number;
  p50ms: number;
  p99ms: number;
  tool: string;
  non2xx: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => { const a = s.address(); s.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port')))); });
  });
}

export async function hasWrk(): Promise<boolean> {
  try { await run('wrk', ['--version']); return true; } catch (e) { return String((e as { stdout?: string }).stdout ?? '').startsWith('wrk'); }
}

/** wrk for `seconds` with `connections` on one thread (autocannon in a child process when wrk is missing). */
export async function load(url: string, seconds: number, connections: number): Promise<LoadFigure> {
  if (await hasWrk()) {
    const { stdout } = await run('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-H', `X-API-KEY: ${TOKEN}`, url], { maxBuffer: 1 << 20 });
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? NaN);
    const pct = (p: string): number => {
      const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(stdout);
      if (!m) return NaN;
      const v = Number(m[1]);
      return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
    };
    const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
    return { reqPerSec: rps, p50ms: pct('50'), p99ms: pct('99'), tool: 'wrk -t1', non2xx };
  }
  const { stdout } = await run(process.execPath, ['node_modules/autocannon/autocannon.js', '-j', '-c', String(connections), '-d', String(seconds), '-H', `X-API-KEY=${TOKEN}`, url], { maxBuffer: 1 << 24 });
  const j = JSON.parse(stdout) as { requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number };
  return { reqPerSec: j.requests.average, p50ms: j.latency.p50, p99ms: j.latency.p99, tool: 'autocannon', non2xx: j.non2xx };
}
