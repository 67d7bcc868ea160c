// The ringql side of the serving bench (issue 18): a server child pinned to a core, the demo events
// ingested into it over HTTP, and a small fetch helper carrying the bench token.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeFlags } from '../src/cli/node-flags.ts';
import { generateEvents } from '../src/gen/generate.ts';
import { freePort } from './http-bench.ts';

export const TOKEN = 'bench-token';
const root = new URL('..', import.meta.url).pathname;

/**
 * `node [nodeArgs] --import tsx args…` on core `core`, resolved once its output matches `ready`. The child
 * gets its own session (`detached`: setsid), hence its own scheduler autogroup, as a service would: in the
 * bench's session it shared one group's weight with the load generator saturating the other core.
 */
export async function startPinned(args: string[], env: Record<string, string>, ready: RegExp, nodeArgs: string[] = [], core = 0): Promise<ChildProcess> {
  const child = spawn('taskset', ['-c', String(core), process.execPath, ...nodeArgs, '--import', 'tsx', ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  // A detached child outlives a bench that ends without its finally (an uncaught error, process.exit).
  process.once('exit', () => child.kill('SIGKILL'));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const on = (d: Buffer): void => { out += d.toString(); if (ready.test(out)) resolve(); };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', (c) => reject(new Error(`${args[0]} exited (${c}):\n${out.slice(-2000)}`)));
  });
  return child;
}

export async function api(base: string, path: string, init: RequestInit = {}): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const r = await fetch(base + path, { ...init, headers: { 'X-API-KEY': TOKEN, 'Content-Type': 'application/json', ...(init.headers as Record<string, string> | undefined) } });
  return { status: r.status, body: Buffer.from(await r.arrayBuffer()), headers: r.headers };
}

/** `events` demo events (5 projects, 7 days, seed 42) posted in batches of 1000 per source. */
export async function ingest(base: string, events: number): Promise<void> {
  const batches = new Map<string, unknown[]>();
  const send = async (source: string, batch: unknown[]): Promise<void> => {
    const r = await api(base, `/api/logs?source_name=${encodeURIComponent(source)}`, { method: 'POST', body: JSON.stringify(batch) });
    if (r.status !== 200) throw new Error(`ingest ${r.status}: ${r.body.toString().slice(0, 200)}`);
  };
  for (const { source, event } of generateEvents({ events, projects: 5, days: 7, seed: 42, endUs: Date.now() * 1000 })) {
    let b = batches.get(source);
    if (!b) batches.set(source, (b = []));
    b.push(event);
    if (b.length >= 1000) await send(source, b.splice(0));
  }
  for (const [source, b] of batches) if (b.length) await send(source, b);
}

/**
 * Pins this bench process (all its threads) and the children it has so far (tsx's esbuild service) to
 * `core`, away from the servers' core 0: they idle while the load runs, but their GC, timers and reads
 * would otherwise run on the core the measured server answers from. Servers started later pin themselves.
 */
export function pinBench(core = 1): void {
  const children = readdirSync(`/proc/${process.pid}/task`).flatMap((t) => readFileSync(`/proc/${process.pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean));
  for (const pid of [String(process.pid), ...children]) execFileSync('taskset', ['-a', '-p', '-c', String(core), pid], { stdio: 'ignore' });
}

/**
 * A ringql server on core 0 holding `events` demo events, ingested over HTTP; state under `tmp`. It runs
 * with what `npm start` gives the server (the V8 heap limit and young-generation cap of src/cli/node-flags.ts,
 * MALLOC_ARENA_MAX=2), so the bench measures what users run; `nodeArgs` come after those.
 */
export async function startRingqlPinned(tmp: string, events: number, nodeArgs: string[] = []): Promise<{ server: ChildProcess; base: string }> {
  const port = await freePort();
  const flags = [...nodeFlags(process.env), ...nodeArgs];
  process.stderr.write(`serving bench: starting ringql on core 0 (port ${port}, ${flags.join(' ')}), ${events} events\n`);
  const env = { PORT: String(port), HOST: '127.0.0.1', RINGQL_DEMO: '0', RINGQL_ACCESS_TOKENS: TOKEN, RINGQL_STATE_DIR: join(tmp, `state-${port}`), MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' };
  const server = await startPinned(['src/main.ts'], env, /ringql listening on/, flags);
  const base = `http://127.0.0.1:${port}`;
  await ingest(base, events);
  return { server, base };
}

/** Raw uWS on core 0 answering every GET with `body` (the bytes ringql sent for the same request); its file goes in `dir`. */
export async function startRawPinned(body: Buffer, dir: string): Promise<{ raw: ChildProcess; base: string }> {
  const port = await freePort();
  const file = join(dir, `raw-${port}.bin`);
  writeFileSync(file, body);
  const raw = await startPinned(['bench/raw-uws-server.ts', String(port), file], {}, /raw uWS listening/);
  return { raw, base: `http://127.0.0.1:${port}` };
}
