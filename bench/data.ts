// Benchmark data: seeded edge events from the demo generator, written once as NDJSON with timestamps
// as µs integers (both ringql and the DuckDB peer load this same file), cached by size and seed.

import { createReadStream, existsSync, mkdirSync, openSync, writeSync, closeSync, statSync, renameSync, readdirSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { generateEvents } from '../src/gen/generate.ts';
import { parseTimestamp } from '../src/core/time.ts';
import { progress } from './stats.ts';

export const PROJECTS = 1000;
export const DAYS = 7;
export const SEED = 7;
/**
 * The generated week ends at the start of the current hour, so the HTTP server (whose clock is real)
 * sees the same data as the in-process engine (whose clock is fixed here). Data files are per hour.
 */
export const END_US = Number(process.env.RINGQL_BENCH_END_US) || Math.floor(Date.now() / 3_600_000) * 3_600_000_000;
// Child processes of one run inherit the same clock.
process.env.RINGQL_BENCH_END_US = String(END_US);

export interface DataFile {
  path: string;
  events: number;
  bytes: number;
}

export function dataDir(): string {
  const d = join(tmpdir(), 'ringql-bench');
  mkdirSync(d, { recursive: true });
  return d;
}

/** Writes (or reuses) `events` edge events over PROJECTS projects and DAYS days. */
export function edgeData(events: number): DataFile {
  const path = join(dataDir(), `edge-${events}-s${SEED}-${END_US / 3_600_000_000}.ndjson`);
  if (existsSync(path)) return { path, events, bytes: statSync(path).size };
  // Files of earlier hours are stale (their week no longer ends now): remove them.
  for (const f of readdirSync(dataDir())) if (f.startsWith(`edge-${events}-`) && f.endsWith('.ndjson')) rmSync(join(dataDir(), f));
  progress(`generating ${events.toLocaleString()} edge events → ${path}`);
  const tmp = path + '.tmp';
  const fd = openSync(tmp, 'w');
  let buf: string[] = [];
  let done = 0;
  for (const g of generateEvents({ events, projects: PROJECTS, days: DAYS, seed: SEED, endUs: END_US, sources: ['edge.logs.prod'] })) {
    const e = g.event as Record<string, unknown>;
    e.timestamp = parseTimestamp(e.timestamp as string | number);
    buf.push(JSON.stringify(e));
    if (buf.length === 10_000) {
      writeSync(fd, buf.join('\n') + '\n');
      buf = [];
      done += 10_000;
      if (done % 1_000_000 === 0) progress(`  ${done.toLocaleString()} written`);
    }
  }
  if (buf.length) writeSync(fd, buf.join('\n') + '\n');
  closeSync(fd);
  renameSync(tmp, path);
  return { path, events, bytes: statSync(path).size };
}

/** Streams the file in arrays of parsed events. */
export async function* readBatches(path: string, size: number): AsyncGenerator<unknown[]> {
  const rl = createInterface({ input: createReadStream(path, { highWaterMark: 1 << 20 }), crlfDelay: Infinity });
  let batch: unknown[] = [];
  for await (const line of rl) {
    if (!line) continue;
    batch.push(JSON.parse(line));
    if (batch.length === size) { yield batch; batch = []; }
  }
  if (batch.length) yield batch;
}

/** Raw NDJSON lines in groups (for HTTP ingest bodies). */
export async function* readLineGroups(path: string, size: number, limit: number): AsyncGenerator<string[]> {
  const rl = createInterface({ input: createReadStream(path, { highWaterMark: 1 << 20 }), crlfDelay: Infinity });
  let group: string[] = [];
  let n = 0;
  for await (const line of rl) {
    if (!line) continue;
    group.push(line);
    if (++n >= limit) break;
    if (group.length === size) { yield group; group = []; }
  }
  if (group.length) yield group;
  rl.close();
}
