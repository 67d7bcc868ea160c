// Ingest over HTTP for the ingest bench (issue 16): bodies posted with N in flight to a ringql server in
// its own process (write-ahead log on), its CPU split by thread; and the same client against a sink process
// that only drains bodies, which shows the load generator is not the bottleneck.

import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Body } from './ingest-corpus.ts';
import { freePort, startMainProcess } from '../test/helpers/main-process.ts';
import { nodeFlags } from '../src/cli/node-flags.ts';

const TOKEN = 'bench-token';

export interface HttpPass {
  events: number;
  eventsPerS: number;
  /** Server CPU µs per event: the whole process, and its main thread alone. */
  serverCpuUs: number;
  mainThreadCpuUs: number;
}

/** One measured pass at `inflight` bodies in flight, with the client's CPU share. */
export interface HttpLevel extends HttpPass {
  inflight: number;
  /** Client (load generator) CPU as a share of one core while it ran. */
  clientCpu: number;
}

/**
 * A fresh server takes a first pass (its JIT compiling and heap growing: several µs/event of CPU that a
 * running server does not pay again; reported apart), then one stream of events per in-flight level. The
 * level with the highest rate is the server's sustained rate (fewer in flight leave both threads partly idle,
 * waiting on each batch's round trip: bench/INGEST.md); every level is reported.
 */
export interface HttpFigure extends HttpLevel {
  levels: HttpLevel[];
  /** The first pass, on the fresh server (at the first level's in-flight count). */
  first: HttpPass;
}

/** CPU seconds (user + system) from a /proc stat line. */
function statCpuS(path: string): number {
  const f = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** CPU seconds of a process (all threads) and of its main thread. */
function procCpu(pid: number): { all: number; main: number } {
  let all = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) all += statCpuS(`/proc/${pid}/task/${tid}/stat`);
  return { all, main: statCpuS(`/proc/${pid}/task/${pid}/stat`) };
}

/** One POST over a kept-alive connection (node:http: far less client CPU per body than fetch). */
function postOne(agent: Agent, port: number, b: Body): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, agent, method: 'POST', path: `/api/logs?source_name=${b.source}`, headers: { 'X-API-KEY': TOKEN, 'Content-Type': 'application/json', 'Content-Length': b.bytes.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`ingest answered ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 300)}`))));
    });
    req.on('error', reject);
    req.end(b.bytes);
  });
}

/** Posts every body with `inflight` requests open at once; events/s, wall ms and the client's CPU share. */
export async function postBodies(port: number, bodies: Body[], inflight: number): Promise<{ eventsPerS: number; clientCpu: number; events: number; ms: number }> {
  let next = 0, events = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: inflight });
  const cpu0 = process.cpuUsage(), t = performance.now();
  const worker = async (): Promise<void> => {
    while (next < bodies.length) {
      const b = bodies[next++]!;
      await postOne(agent, port, b);
      events += b.events;
    }
  };
  await Promise.all(Array.from({ length: inflight }, worker));
  const ms = performance.now() - t, cpu = process.cpuUsage(cpu0);
  agent.destroy();
  return { eventsPerS: events / (ms / 1000), clientCpu: (cpu.user + cpu.system) / 1000 / ms, events, ms };
}

/** Bodies in flight of the measured passes. */
export const HTTP_INFLIGHT = [4, 8, 16] as const;
/** The first pass has `events` events, each level's pass 1.5× as many: the corpus holds this many times `events`. */
export const HTTP_CORPUS_TIMES = 1 + 1.5 * HTTP_INFLIGHT.length;

/** Consecutive runs of bodies holding at least `sizes[i]` events each (the last takes the rest). */
export function splitCorpus(bodies: Body[], sizes: readonly number[]): Body[][] {
  const out: Body[][] = [];
  let k = 0;
  sizes.forEach((size, i) => {
    const from = k;
    if (i === sizes.length - 1) k = bodies.length;
    else for (let n = 0; k < bodies.length && n < size; k++) n += bodies[k]!.events;
    out.push(bodies.slice(from, k));
  });
  return out;
}

/** The corpus of an HTTP run of `events` events a pass: the first pass's bodies, then each level's. */
export function httpPasses(bodies: Body[], events: number): { warm: Body[]; levels: Body[][] } {
  const [warm, ...levels] = splitCorpus(bodies, [events, ...HTTP_INFLIGHT.map(() => 1.5 * events)]);
  return { warm: warm!, levels };
}

/** Posts `bodies` and reads the server's CPU around it. */
async function pass(port: number, pid: number, bodies: Body[], inflight: number): Promise<HttpLevel> {
  const c0 = procCpu(pid);
  const r = await postBodies(port, bodies, inflight);
  const c1 = procCpu(pid);
  return { inflight, events: r.events, eventsPerS: r.eventsPerS, clientCpu: r.clientCpu, serverCpuUs: ((c1.all - c0.all) * 1e6) / r.events, mainThreadCpuUs: ((c1.main - c0.main) * 1e6) / r.events };
}

/** `warm` posted first to the fresh server (figures apart), then `levels[i]` with HTTP_INFLIGHT[i] in flight. */
export async function httpIngest(warm: Body[], levels: Body[][]): Promise<HttpFigure> {
  if (levels.length !== HTTP_INFLIGHT.length) throw new Error(`httpIngest: ${levels.length} level corpora for ${HTTP_INFLIGHT.length} levels`);
  const port = await freePort();
  // npm start's node flags and allocator setting, so the server runs as users run it.
  const env = {
    RINGQL_ACCESS_TOKENS: TOKEN, RINGQL_STATE_DIR: mkdtempSync(join(tmpdir(), 'ringql-ingest-bench-')), MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
    RINGQL_RETENTION_HOURS: String(24 * 365), RINGQL_MAX_ROWS_PER_SOURCE: '50000000', RINGQL_MAX_BYTES_PER_SOURCE: String(32 * 2 ** 30),
  };
  const child = await startMainProcess(port, env, nodeFlags({ ...process.env, ...env }));
  try {
    const w = await pass(port, child.pid!, warm, HTTP_INFLIGHT[0]);
    const first: HttpPass = { events: w.events, eventsPerS: w.eventsPerS, serverCpuUs: w.serverCpuUs, mainThreadCpuUs: w.mainThreadCpuUs };
    const done: HttpLevel[] = [];
    for (let i = 0; i < levels.length; i++) done.push(await pass(port, child.pid!, levels[i]!, HTTP_INFLIGHT[i]!));
    const best = done.reduce((a, b) => (b.eventsPerS > a.eventsPerS ? b : a));
    return { ...best, levels: done, first };
  } finally {
    child.kill('SIGTERM');
  }
}

/** A server in its own process that only reads each body and answers 200 (so it takes no CPU from the client). */
const SINK = `const s = require('node:http').createServer((q, r) => { q.on('data', () => {}); q.on('end', () => r.end('{"message":"Logged!"}')); });
s.listen(0, '127.0.0.1', () => process.stdout.write(String(s.address().port) + '\\n'));`;

/** The same client against the drain-only sink: the load generator's own ceiling. */
export async function generatorCeiling(bodies: Body[], inflight = 4): Promise<{ eventsPerS: number; clientCpu: number }> {
  const sink = spawn(process.execPath, ['-e', SINK], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      sink.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
      sink.once('exit', (c) => reject(new Error(`the sink exited (${c})`)));
    });
    const r = await postBodies(port, bodies, inflight);
    return { eventsPerS: r.eventsPerS, clientCpu: r.clientCpu };
  } finally {
    sink.kill();
  }
}
