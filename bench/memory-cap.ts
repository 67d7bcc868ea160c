// Issue 15's cap under endless ingest: the compiled server (as `npm start` runs it) with
// RINGQL_MAX_MEMORY=<cap>, ~500 B edge events posted over HTTP well past the cap, the whole process
// tree's RSS sampled; at the end the oldest events must be gone and the newest queryable.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './http-bench.ts';
import { rng, smallEvent } from './small-events.ts';
import { loadAverage, treeRssBytes } from './proc-tree.ts';
import { progress } from './stats.ts';
import { nodeFlags } from '../src/cli/node-flags.ts';
import type { ProcessMemory } from '../src/store/store.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const TOKEN = 'bench-cap-token';
const BATCH = 500;

export interface CapFigures {
  capBytes: number;
  seconds: number;
  sent: { events: number; bytes: number };
  held: number;
  evictedForBudget: number;
  /** Budget use at the end (what RINGQL_MAX_MEMORY counts). */
  usedBytes: number;
  maxRss: number;
  endRss: number;
  /** Oldest and newest event time left in the store (µs) against the first batch's newest and the last sent. */
  oldestLeft: number;
  firstBatchMax: number;
  newestLeft: number;
  lastSent: number;
  oldestEvicted: boolean;
  newestQueryable: boolean;
  /** /health's process part at the end (RSS, overhead, store target, V8 heap); absent before issue 15's fix. */
  process?: ProcessMemory;
  load: { start: string; end: string };
}

async function startServer(capBytes: number, stateDir: string, serverLog: boolean): Promise<{ child: ChildProcess; base: string }> {
  const build = spawnSync(process.execPath, ['src/cli/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('memory cap: the build step (src/cli/build.mjs) failed');
  const port = await freePort();
  // As `npm start` runs it: the heap limit from the budget and glibc's arenas bounded.
  const env = { ...process.env, RINGQL_MAX_MEMORY: String(capBytes), MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' };
  const child = spawn(process.execPath, [...nodeFlags(env), 'dist/src/main.js'], {
    cwd: ROOT,
    env: { ...env, RINGQL_DEMO: '0', PORT: String(port), HOST: '127.0.0.1', RINGQL_STATE_DIR: stateDir, RINGQL_ACCESS_TOKENS: TOKEN,
      RINGQL_MAX_MEMORY: String(capBytes), RINGQL_MAX_ROWS_PER_SOURCE: '1000000000', RINGQL_MAX_BYTES_PER_SOURCE: String(64 * 2 ** 30) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const on = (d: Buffer): void => { out += d.toString(); if (out.includes('ringql listening on')) resolve(); };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    // --log: the server's own lines (checkpoints, warnings) on stderr, timed as the progress lines are, to place a peak.
    if (serverLog) child.stderr!.on('data', (d: Buffer) => { for (const l of d.toString().trimEnd().split('\n')) progress(`server: ${l}`); });
    child.once('exit', (c, sig) => {
      reject(new Error(`memory cap: the server exited (${c}) before listening:\n${out.slice(-1500)}`));
      if (sig !== 'SIGTERM') process.stderr.write(`memory cap: the server exited (${c ?? sig}):\n${out.slice(-3000)}\n`);
    });
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

async function api(base: string, path: string, init: RequestInit = {}): Promise<unknown> {
  const r = await fetch(base + path, { ...init, headers: { 'X-API-KEY': TOKEN, 'Content-Type': 'application/json', ...(init.headers as Record<string, string> | undefined) } });
  const text = await r.text();
  if (r.status !== 200 && r.status !== 201) throw new Error(`memory cap: ${path} answered ${r.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

/** Endless ingest: NDJSON bodies of fresh small events, timestamps strictly increasing from now. */
class EventSource {
  private readonly r = rng(23);
  private i = 0;
  last = 0;
  body(): { bytes: Buffer; first: number; max: number } {
    const lines: string[] = [];
    let first = 0;
    for (let k = 0; k < BATCH; k++) {
      const e = smallEvent(this.r, this.i++, 1);
      this.last = Math.max(this.last + 1, Date.now() * 1000);
      e.timestamp = this.last;
      if (k === 0) first = this.last;
      lines.push(JSON.stringify(e));
    }
    return { bytes: Buffer.from(lines.join('\n') + '\n'), first, max: this.last };
  }
}

interface Health { rows: Record<string, number>; memory_budget: { used_bytes: number; evicted_for_budget: number; checkpoint_in_flight?: number; process?: ProcessMemory } }

/** Posts bodies (4 in flight) until `done()` says so; samples the tree RSS meanwhile. */
async function ingestUntil(base: string, pid: number, capBytes: number, src: EventSource, done: (h: Health) => boolean): Promise<{ events: number; bytes: number; firstBatchMax: number; maxRss: number }> {
  let stop = false, events = 0, bytes = 0, firstBatchMax = 0, maxRss = 0;
  const sampler = setInterval(() => {
    const rss = treeRssBytes(pid);
    // A new peak past 90% of the cap is noted with its time, to line it up with the server's log (--log).
    if (rss > maxRss && rss > capBytes * 0.9) progress(`  new max tree RSS ${(rss / 2 ** 20).toFixed(0)} MiB`);
    maxRss = Math.max(maxRss, rss);
  }, 250);
  const watcher = (async () => {
    while (!stop) {
      await new Promise((r) => setTimeout(r, 2000));
      if (done((await api(base, '/health')) as Health)) stop = true;
    }
  })();
  const worker = async (): Promise<void> => {
    while (!stop) {
      const b = src.body();
      if (!firstBatchMax) firstBatchMax = b.max;
      const r = await fetch(`${base}/api/logs?source_name=edge.logs.prod`, { method: 'POST', headers: { 'X-API-KEY': TOKEN, 'Content-Type': 'application/x-ndjson' }, body: b.bytes });
      const text = await r.text();
      if (r.status !== 200) throw new Error(`memory cap: ingest answered ${r.status}: ${text.slice(0, 300)}`);
      events += BATCH;
      bytes += b.bytes.length;
    }
  };
  try {
    await Promise.all([worker(), worker(), worker(), worker()]);
  } finally {
    stop = true;
    clearInterval(sampler);
    await watcher;
  }
  return { events, bytes, firstBatchMax, maxRss };
}

const mib = (n: number): string => (n / 2 ** 20).toFixed(0);

/** The process part of /health in one line (overhead, store target, main-thread heap, external). */
function procLine(p: ProcessMemory | undefined): string {
  return p ? ` (overhead ${mib(p.overhead_bytes)}, store target ${mib(p.store_target_bytes)}, heap ${mib(p.v8_heap_used_bytes)}/${mib(p.v8_heap_total_bytes)}, external ${mib(p.external_bytes)} MiB)` : '';
}

/**
 * Ingests until the store has evicted for the budget at least as many events as it holds (its whole
 * content turned over once past the cap) and 20 s more, or `maxSeconds`; then checks what is left.
 */
export async function memoryCap(o: { capBytes: number; maxSeconds: number; serverLog?: boolean }): Promise<CapFigures> {
  const stateDir = mkdtempSync(join(tmpdir(), 'ringql-cap-'));
  const loadStart = loadAverage();
  const { child, base } = await startServer(o.capBytes, stateDir, o.serverLog === true);
  try {
    const t0 = performance.now();
    let turnedAt = 0;
    const src = new EventSource();
    const sent = await ingestUntil(base, child.pid!, o.capBytes, src, (h) => {
      const held = h.rows['edge.logs.prod'] ?? 0, ev = h.memory_budget.evicted_for_budget;
      if (!turnedAt && ev > 0 && ev >= held) turnedAt = performance.now();
      progress(`  cap ${(o.capBytes / 2 ** 20).toFixed(0)}M: ${held.toLocaleString()} held, ${ev.toLocaleString()} evicted for the budget, budget use ${(h.memory_budget.used_bytes / 2 ** 20).toFixed(0)} MiB (checkpoint ${((h.memory_budget.checkpoint_in_flight ?? 0) / 2 ** 20).toFixed(0)}), tree RSS ${(treeRssBytes(child.pid!) / 2 ** 20).toFixed(0)} MiB${procLine(h.memory_budget.process)}`);
      return (turnedAt > 0 && performance.now() - turnedAt > 20_000) || performance.now() - t0 > o.maxSeconds * 1000;
    });
    const seconds = (performance.now() - t0) / 1000;
    const h = (await api(base, '/health')) as Health;
    await api(base, '/api/endpoints', { method: 'POST', body: JSON.stringify({ name: 'bench.cap', cache_duration_seconds: 0,
      query: 'select count(*) as n, unix_micros(min(timestamp)) as oldest, unix_micros(max(timestamp)) as newest from `edge.logs.prod`' }) });
    const q = ((await api(base, '/api/endpoints/query/bench.cap')) as { result: { n: number; oldest: number; newest: number }[] }).result[0]!;
    const endRss = treeRssBytes(child.pid!);
    return {
      capBytes: o.capBytes, seconds, sent: { events: sent.events, bytes: sent.bytes }, held: Number(q.n),
      evictedForBudget: h.memory_budget.evicted_for_budget, usedBytes: h.memory_budget.used_bytes,
      maxRss: Math.max(sent.maxRss, endRss), endRss, oldestLeft: Number(q.oldest), firstBatchMax: sent.firstBatchMax,
      newestLeft: Number(q.newest), lastSent: src.last,
      oldestEvicted: Number(q.oldest) > sent.firstBatchMax, newestQueryable: Number(q.newest) === src.last,
      load: { start: loadStart, end: loadAverage() },
      ...(h.memory_budget.process ? { process: h.memory_budget.process } : {}),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(stateDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // npx tsx bench/memory-cap.ts [capMiB] [maxSeconds] [--log]
  const args = process.argv.slice(2).filter((a) => a !== '--log');
  const cap = Number(args[0] ?? 512) * 2 ** 20;
  process.stdout.write(JSON.stringify(await memoryCap({ capBytes: cap, maxSeconds: Number(args[1] ?? 360), serverLog: process.argv.includes('--log') }), null, 1) + '\n');
}
