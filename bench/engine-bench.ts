// In-process figures for ringql (tinybench): the benchmark queries cold (no result or bucket cache),
// usage.api-counts warm (bucket cache), parse+plan of both saved queries, and a 500-event ingest.

import { compressPendingNow } from '../src/store/block-compressor.ts';
import { TRIM_DELAY_MS } from '../src/store/allocator-trim.ts';
import { Bench } from 'tinybench';
import { mkdtempSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import { createQueryService } from '../src/endpoints/service.ts';
import { loadBuiltins } from '../src/endpoints/endpoint-files.ts';
import { prepareEndpoint, type PreparedEndpoint } from '../src/endpoints/prepare.ts';
import { resolveRequest, executeRequest, planRequest } from '../src/endpoints/execute.ts';
import { END_US, readBatches, type DataFile } from './data.ts';
import { countProjects, ndjsonChunks } from './ndjson-chunks.ts';
import { figure, progress, type Figure } from './stats.ts';
import { recycleBody } from '../src/core/body-pool.ts';
import type { BenchQuery } from './queries.ts';

const BUDGET = { timeoutMs: 600_000, maxRows: Number.MAX_SAFE_INTEGER };

export interface LoadedEngine {
  store: Store;
  service: Awaited<ReturnType<typeof createQueryService>>;
  prepared: Map<string, PreparedEndpoint>;
  loadMs: number;
  /** Resident growth while loading (SPEC §10: no peer in this process), when run with --expose-gc. */
  memory: { events: number; ndjsonBytes: number; rssGrowth: number; peakGrowth: number; heapUsed: number; external: number; counted: number };
  /** The project with the most events (the generator's `default`) and the median one. */
  projects: { big: string; median: string };
}

export async function loadEngine(data: DataFile): Promise<LoadedEngine> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('bench engine: run node with --expose-gc (memory is measured while loading)');
  gc();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const store = new Store(defaultStoreConfig({ RINGQL_MAX_ROWS_PER_SOURCE: String(Math.max(10_000_000, data.events)), RINGQL_MAX_BYTES_PER_SOURCE: String(64 * 2 ** 30) }));
  const src = store.source('edge.logs.prod')!;
  const counts = new Map<string, number>();
  const t = performance.now();
  let n = 0, nextNote = 1_000_000;
  // The byte path, as the server's HTTP ingest and `ringql query --load` take it (~4 MiB NDJSON bodies).
  for await (const chunk of ndjsonChunks(data.path)) {
    n += countProjects(chunk, counts);
    const r = src.ingestBytes(chunk, true, END_US);
    if (typeof r === 'string') throw new Error(`bench engine: the byte path declined a chunk of ${data.path}: ${r}`);
    peak = Math.max(peak, process.memoryUsage().rss);
    if (n >= nextNote) { progress(`  ringql loaded ${n.toLocaleString()}`); nextNote += 1_000_000; }
  }
  const loadMs = performance.now() - t;
  // A server compresses the last sealed blocks between requests; settle them before measuring.
  compressPendingNow();
  gc();
  // A server gives glibc's free pages back TRIM_DELAY_MS after its last seal or merge (allocator-trim.ts):
  // resident memory is measured once that trim has run, as in a server holding these events, not in the
  // moment after the load while the freed seal and merge inputs are still mapped (bench/MEMORY.md).
  await new Promise((r) => setTimeout(r, TRIM_DELAY_MS + 200));
  gc();
  gc();
  const after = process.memoryUsage();
  const memory = { events: src.rowCount, ndjsonBytes: statSync(data.path).size, rssGrowth: after.rss - rssBefore, peakGrowth: Math.max(peak, after.rss) - rssBefore, heapUsed: after.heapUsed, external: after.external, counted: store.memoryStats().used_bytes };
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  const service = await createQueryService({ store, stateDir: mkdtempSync(join(tmpdir(), 'ringql-bench-state-')), nowMicros: () => END_US, budget: BUDGET, cache: { sweepMs: 0 } });
  // Cold runs compute every answer: prepared as if uncached, so no plan reads the bucket cache's rows
  // (a cached endpoint's physical plan takes them from the service's run context, which runCold has not).
  const prepared = new Map(loadBuiltins().map((b) => [b.def.name, prepareEndpoint({ ...b.def, cache_duration_seconds: 0 }, service.catalog, END_US)] as const));
  return { store, service, prepared, loadMs, memory, projects: { big: sorted[0]![0], median: sorted[sorted.length >> 1]![0] } };
}

/** Executes a query without any cache: plan + execute + serialise, as a cache miss does. */
export function runCold(eng: LoadedEngine, q: BenchQuery): { body: Buffer; rowCount: number } {
  const prep = eng.prepared.get(q.endpoint)!;
  return executeRequest(prep, resolveRequest(prep, new Map(Object.entries(q.params))), false, eng.service.catalog, END_US, BUDGET);
}

/**
 * runCold, then the body given back as the server gives back an answer nobody keeps once uWS copied it
 * (Exchange.send for a cache_duration 0 endpoint, which every prepared here is): what a served miss costs.
 */
export function runColdServed(eng: LoadedEngine, q: BenchQuery): number {
  const r = runCold(eng, q);
  recycleBody(r.body);
  return r.rowCount;
}

export async function runWarm(eng: LoadedEngine, q: BenchQuery): Promise<{ body: Buffer; cache: string }> {
  const r = await eng.service.run({ endpoint: q.endpoint, params: new Map(Object.entries(q.params)), redactHeader: false });
  return { body: r.body, cache: r.cache + (r.cacheKind ? '/' + r.cacheKind : '') };
}

function latency(task: { result: unknown }): Figure {
  const r = task.result as { latency?: { samples?: number[]; p50: number; min: number; max: number; samplesCount: number } };
  if (!r.latency) throw new Error('tinybench task has no latency result');
  return { median: r.latency.p50, min: r.latency.min, max: r.latency.max, n: r.latency.samplesCount };
}

/** tinybench over named synchronous or async functions; returns latency figures in ms. */
export async function tiny(tasks: [string, () => unknown][], timeMs: number): Promise<Map<string, Figure>> {
  const bench = new Bench({ time: timeMs, warmupTime: Math.min(200, timeMs / 4), iterations: 5 });
  for (const [name, fn] of tasks) bench.add(name, fn);
  await bench.run();
  return new Map(bench.tasks.map((t) => [t.name, latency(t)]));
}

/** Parse + bind + plan of a saved query (what every uncached request or endpoint update costs). */
export function parsePlanTasks(eng: LoadedEngine, project: string): [string, () => unknown][] {
  return loadBuiltins().map((b) => [`parse+plan ${b.def.name}`, () => {
    const prep = prepareEndpoint(b.def, eng.service.catalog, END_US);
    const params = b.def.name === 'logs.all' ? { project } : { project, interval: 'daily' };
    return planRequest(prep, resolveRequest(prep, new Map(Object.entries(params))), eng.service.catalog, END_US);
  }]);
}

/** Ingest of one 500-event batch (JSON text → parsed → validated → stored) into a separate store. */
export async function ingestTask(data: DataFile): Promise<[string, () => unknown]> {
  const bodies: string[] = [];
  for await (const b of readBatches(data.path, 500)) { bodies.push(JSON.stringify(b)); if (bodies.length === 200) break; }
  const store = new Store(defaultStoreConfig({}));
  const src = store.source('edge.logs.prod')!;
  let i = 0;
  return ['ingest 500-event batch', () => src.ingest(JSON.parse(bodies[i++ % bodies.length]!) as unknown[], END_US)];
}

export function figureOf(samples: number[]): Figure {
  return figure(samples);
}
