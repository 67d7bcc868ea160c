// Server CPU per event over HTTP, by thread (issue 16): the ingest bench's load (500-event bodies, 4 in
// flight, WAL on) against a ringql server, its threads' CPU µs/event grouped by thread name.
// Usage: npx tsx bench/ingest-threads.ts [demo|small] [events=60000] [rounds=3, at least 2: round 0 is a warm-up];
// INFLIGHT=n sets the bodies in flight (default 4).

import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoBodies, smallEdgeBodies } from './ingest-corpus.ts';
import { postBodies } from './ingest-http.ts';
import { freePort, startMainProcess } from '../test/helpers/main-process.ts';

const TOKEN = 'bench-token';

/** A /proc stat line's name (inside the parentheses) and its fields after it (state first). */
function statOf(path: string): { name: string; f: string[] } {
  const s = readFileSync(path, 'utf8');
  return { name: s.slice(s.indexOf('(') + 1, s.lastIndexOf(')')), f: s.slice(s.lastIndexOf(') ') + 2).split(' ') };
}

/** CPU seconds (user + system) of each thread, keyed "name#tid" ("main" for the process's first thread). */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const { name, f } = statOf(`/proc/${pid}/task/${tid}/stat`);
      out.set(Number(tid) === pid ? 'main' : `${name}#${tid}`, (Number(f[11]) + Number(f[12])) / 100);
    } catch { /* the thread ended */ }
  }
  return out;
}

/** Minor page faults of the whole process so far (/proc/<pid>/stat's minflt): a first touch of memory, ~10 µs each on some VMs. */
function minorFaults(pid: number): number {
  return Number(statOf(`/proc/${pid}/stat`).f[7]);
}

async function main(): Promise<void> {
  const [kind = 'demo', n = '60000', r = '3'] = process.argv.slice(2);
  // Round 0 warms the server (JIT, first seals) and is printed but not counted, so a median needs a second.
  if (!(Number(r) >= 2)) throw new Error(`rounds must be at least 2 (round 0 is a warm-up): got ${r}`);
  const now = Date.now() * 1000;
  const bodies = kind === 'small' ? smallEdgeBodies(Number(n), now) : demoBodies(Number(n), now);
  const port = await freePort();
  // The server's write-ahead log of every round (~400 MB for demo events) goes when the run ends.
  const stateDir = mkdtempSync(join(tmpdir(), 'ringql-ingest-threads-'));
  const child = await startMainProcess(port, {
    RINGQL_ACCESS_TOKENS: TOKEN, RINGQL_STATE_DIR: stateDir,
    RINGQL_RETENTION_HOURS: String(24 * 365), RINGQL_MAX_ROWS_PER_SOURCE: '50000000', RINGQL_MAX_BYTES_PER_SOURCE: String(32 * 2 ** 30),
    // SERVER_NODE_OPTIONS goes to the server alone; its output to SERVER_LOG when set.
    ...(process.env.SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.SERVER_NODE_OPTIONS } : {}),
    // SERVER_NODE_FLAGS (space-separated, e.g. --trace-gc, which NODE_OPTIONS refuses) go on the server's command line.
  }, (process.env.SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean));
  const log = process.env.SERVER_LOG;
  if (log) for (const s of [child.stdout!, child.stderr!]) s.on('data', (d: Buffer) => appendFileSync(log, d));
  process.stdout.write(`server pid ${child.pid}\n`);
  const rows: number[][] = [];
  try {
    for (let round = 0; round < Number(r); round++) {
      const c0 = threadCpu(child.pid!), f0 = minorFaults(child.pid!);
      const { events, ms } = await postBodies(port, bodies, Number(process.env.INFLIGHT ?? 4));
      const c1 = threadCpu(child.pid!), faults = (minorFaults(child.pid!) - f0) / events;
      const by = new Map<string, number>();
      let all = 0;
      for (const [k, v] of c1) {
        const d = v - (c0.get(k) ?? 0);
        all += d;
        if (d > 0) by.set(k, (by.get(k) ?? 0) + d);
      }
      const us = (s: number): string => ((s * 1e6) / events).toFixed(1);
      const sorted = [...by].sort((a, b) => b[1] - a[1]);
      const parts = sorted.map(([k, v]) => `${k} ${us(v)}`);
      process.stdout.write(`${kind} round ${round}: ${Math.round(events / (ms / 1000))} events/s, all ${us(all)} µs/event, ${faults.toFixed(3)} page faults/event; ${parts.join(', ')}\n`);
      // The transform thread is the busiest thread after the main one (V8's helpers and libuv's pool take a few µs each).
      const main = by.get('main') ?? 0, transform = sorted.find(([k]) => k !== 'main')?.[1] ?? 0;
      if (round > 0) rows.push([events / (ms / 1000), (all * 1e6) / events, (main * 1e6) / events, (transform * 1e6) / events, ((all - main - transform) * 1e6) / events, faults]);
    }
    const med = (i: number): number => rows.map((x) => x[i]!).sort((a, b) => a - b)[rows.length >> 1]!;
    process.stdout.write(`${kind} median of rounds 1-${rows.length}: ${Math.round(med(0))} events/s; server CPU µs/event: all ${med(1).toFixed(1)}, main ${med(2).toFixed(1)}, transform thread ${med(3).toFixed(1)}, other threads ${med(4).toFixed(1)}; page faults/event ${med(5).toFixed(3)}\n`);
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null && child.signalCode === null) await new Promise((done) => child.once('exit', done));
    rmSync(stateDir, { recursive: true, force: true });
  }
}

await main();
