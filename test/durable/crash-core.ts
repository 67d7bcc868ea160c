// The crash test of SPEC §12: several clients ingest continuously into a real ringql process, which is
// killed with SIGKILL at random moments and restarted; after every restart each acknowledged batch must
// be present exactly once, and no batch may be half-present.

import type { ChildProcess } from 'node:child_process';
import { freePort, startMainProcess } from '../helpers/main-process.ts';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TOKEN = 'crash-test';

export interface CrashReport {
  cycles: number;
  acknowledged: number;
  /** Batches sent whose answer never came (the kill cut them): each may be there whole, or not at all. */
  unknown: number;
  failures: string[];
}

function request(port: number, method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent: false, headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** A small RINGQL_CHECKPOINT_BYTES, so kills also land during and between checkpoints (recovery = checkpoint + log tail). */
const CHECKPOINT_BYTES = '65536';

function start(port: number, stateDir: string, fsync: string): Promise<ChildProcess> {
  return startMainProcess(port, { RINGQL_ACCESS_TOKENS: TOKEN, RINGQL_STATE_DIR: stateDir, RINGQL_FSYNC: fsync, RINGQL_CHECKPOINT_BYTES: CHECKPOINT_BYTES });
}

const COUNTS_SQL = "select b, n from (select split(event_message, ':')[offset(0)] as b, count(*) as n from `edge.logs.prod` where project = 'crash' group by b) " +
  'where cast(substr(b, 2) as int64) >= cast(@lo as int64) and cast(substr(b, 2) as int64) < cast(@hi as int64)';
const PAGE = 5000;

/** Batch ids present in the store with their event counts (each event's message is `<batch>:<i>`), for ids below `upTo`. */
async function presentBatches(port: number, upTo: number): Promise<Map<string, number>> {
  // A saved endpoint (kept across restarts like any other), read a page of batch ids at a time (max_limit is 10,000 rows).
  const c = await request(port, 'POST', '/api/endpoints', JSON.stringify({ name: 'crash.counts', query: COUNTS_SQL, max_limit: 10000, cache_duration_seconds: 0 }));
  if (c.status !== 201 && c.status !== 409) throw new Error(`creating the count endpoint → ${c.status} ${c.body.slice(0, 300)}`);
  const out = new Map<string, number>();
  for (let lo = 0; lo < upTo + PAGE; lo += PAGE) {
    const r = await request(port, 'GET', `/api/endpoints/query/crash.counts?lo=${lo}&hi=${lo + PAGE}`);
    if (r.status !== 200) throw new Error(`count query → ${r.status} ${r.body.slice(0, 300)}`);
    for (const x of (JSON.parse(r.body) as { result: { b: string; n: number }[] }).result) out.set(x.b, x.n);
  }
  return out;
}

/** `cycles` kills and restarts; `clients` ingest concurrently with batches of `batchSize` events. */
export async function crashTest(opts: { cycles: number; clients: number; batchSize: number; fsync: 'always' | 'interval'; log?: (l: string) => void }): Promise<CrashReport> {
  const stateDir = mkdtempSync(join(tmpdir(), 'ringql-crash-'));
  const port = await freePort();
  const acked = new Set<string>();
  const unknown = new Set<string>();
  const failures: string[] = [];
  let seq = 0;
  for (let cycle = 0; cycle < opts.cycles; cycle++) {
    const child = await start(port, stateDir, opts.fsync);
    const present = await presentBatches(port, seq);
    // Every acknowledged batch is there once, whole; a batch whose answer never came is whole or absent.
    for (const b of acked) {
      const n = present.get(b);
      if (n !== opts.batchSize) failures.push(`cycle ${cycle}: acknowledged batch ${b} has ${n ?? 0} of ${opts.batchSize} events`);
    }
    for (const [b, n] of present) {
      if (!acked.has(b) && !unknown.has(b)) failures.push(`cycle ${cycle}: batch ${b} was never sent`);
      if (n !== opts.batchSize) failures.push(`cycle ${cycle}: batch ${b} is half-present (${n} of ${opts.batchSize})`);
    }
    for (const b of unknown) if (present.has(b)) { acked.add(b); unknown.delete(b); } else unknown.delete(b);
    let running = true;
    const client = async (): Promise<void> => {
      while (running) {
        const id = `b${seq++}`;
        const events = Array.from({ length: opts.batchSize }, (_, i) => ({ project: 'crash', event_message: `${id}:${i}`, metadata: { request: { path: '/rest/v1/x' } } }));
        unknown.add(id);
        try {
          const r = await request(port, 'POST', '/api/logs?source_name=edge.logs.prod', JSON.stringify(events));
          if (r.status === 200) { unknown.delete(id); acked.add(id); } else if (r.status < 500) { unknown.delete(id); failures.push(`batch ${id} → ${r.status} ${r.body.slice(0, 200)}`); }
        } catch {
          return; // the server was killed mid-request: the batch stays unknown
        }
      }
    };
    const clients = Array.from({ length: opts.clients }, client);
    await new Promise((r) => setTimeout(r, 150 + Math.random() * 700));
    child.kill('SIGKILL');
    running = false;
    await Promise.all(clients);
    await new Promise((r) => child.once('exit', r));
    opts.log?.(`crash: cycle ${cycle + 1}/${opts.cycles}: ${acked.size} batches acknowledged so far, ${failures.length} failures`);
  }
  // A final clean start checks the last cycle's batches too.
  const child = await start(port, stateDir, opts.fsync);
  const present = await presentBatches(port, seq);
  for (const b of acked) if (present.get(b) !== opts.batchSize) failures.push(`final: acknowledged batch ${b} has ${present.get(b) ?? 0} of ${opts.batchSize} events`);
  for (const [b, n] of present) if (n !== opts.batchSize) failures.push(`final: batch ${b} is half-present (${n} of ${opts.batchSize})`);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return { cycles: opts.cycles, acknowledged: acked.size, unknown: unknown.size, failures };
}
