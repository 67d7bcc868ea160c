// HTTP figures on loopback: ringql's server and the raw uWebSockets.js peer each in their own child
// process, load from wrk (a separate process; autocannon when wrk is missing), ingest over HTTP.

import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { dataDir, readLineGroups, type DataFile } from './data.ts';
import { progress } from './stats.ts';

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

async function waitFor(child: ChildProcess, pattern: RegExp, what: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer): void => { out += d.toString(); if (pattern.test(out)) resolve(); };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before it was ready:\n${out.slice(-2000)}`)));
    setTimeout(() => reject(new Error(`${what} not ready after 120 s:\n${out.slice(-2000)}`)), 120_000).unref();
  });
}

export interface RingqlServer {
  base: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startRingql(maxRows: number): Promise<RingqlServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [...(process.env.RINGQL_BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.RINGQL_BENCH_PROFILE] : []), '--max-old-space-size=20480', '--import', 'tsx', 'src/main.ts'], {
    cwd: new URL('..', import.meta.url).pathname,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', RINGQL_DEMO: '0', RINGQL_ACCESS_TOKENS: TOKEN, RINGQL_MAX_ROWS_PER_SOURCE: String(maxRows), RINGQL_MAX_BYTES_PER_SOURCE: String(64 * 2 ** 30), RINGQL_STATE_DIR: join(dataDir(), `state-${port}`), RINGQL_RETENTION_HOURS: String(24 * 365 * 30) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitFor(child, /ringql listening on/, 'ringql server');
  return { base: `http://127.0.0.1:${port}`, child, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const done = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  await Promise.race([done, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

export async function startRaw(body: Buffer): Promise<{ base: string; stop(): Promise<void> }> {
  const port = await freePort();
  const file = join(dataDir(), `raw-body-${port}.json`);
  writeFileSync(file, body);
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/raw-uws-server.ts', String(port), file], { cwd: new URL('..', import.meta.url).pathname, stdio: ['ignore', 'pipe', 'pipe'] });
  await waitFor(child, /raw uWS listening/, 'raw uWS server');
  return { base: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

const headers = { 'X-API-KEY': TOKEN };

export async function get(base: string, path: string): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const r = await fetch(base + path, { headers });
  return { status: r.status, body: Buffer.from(await r.arrayBuffer()), headers: r.headers };
}

/** Ingests the data file over HTTP in 500-event JSON-array bodies, `inflight` requests at a time. */
export async function httpIngest(base: string, data: DataFile, limit: number, inflight = 4): Promise<{ events: number; bytes: number; ms: number }> {
  const bodies: Buffer[] = [];
  for await (const group of readLineGroups(data.path, 500, limit)) bodies.push(Buffer.from('[' + group.join(',') + ']'));
  let next = 0, events = 0, bytes = 0;
  const t = performance.now();
  const worker = async (): Promise<void> => {
    while (next < bodies.length) {
      const b = bodies[next++]!;
      const r = await fetch(`${base}/api/logs?source_name=edge.logs.prod`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: b });
      if (r.status !== 200) throw new Error(`ingest answered ${r.status}: ${(await r.text()).slice(0, 300)}`);
      await r.arrayBuffer();
      events += 500;
      bytes += b.length;
    }
  };
  await Promise.all(Array.from({ length: inflight }, worker));
  return { events: Math.min(events, limit), bytes, ms: performance.now() - t };
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

export function note(msg: string): void {
  progress(msg);
}
