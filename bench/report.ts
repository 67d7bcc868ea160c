// The engine part of bench/RESULTS.md: correctness check against the DuckDB peer, per-size tables of
// ringql cold/warm against DuckDB (1 thread and all cores), scaling and memory per NDJSON byte.

import type { DataFile } from './data.ts';
import { fmtMs, num, ratio, type Figure } from './stats.ts';

export interface EngineOut {
  loadMs: number;
  memory: MemoryOut;
  projects: { big: string; median: string };
  cold: Record<string, Figure>;
  firstRun: Record<string, number>;
  warm: Record<string, Figure>;
  fingerprints: Record<string, string>;
  other: Record<string, Figure>;
}
export interface DuckOut {
  loadMs: number;
  t1: Record<string, Figure>;
  tAll: Record<string, Figure>;
  fingerprints: Record<string, string>;
}
export interface MemoryOut {
  events: number;
  ndjsonBytes: number;
  rssGrowth: number;
  peakGrowth: number;
  heapUsed: number;
  external: number;
  /** What RINGQL_MAX_MEMORY counts (store.memoryStats().used_bytes). */
  counted: number;
}
export interface SizeResult {
  size: number;
  data: DataFile;
  engine: EngineOut;
  duck: DuckOut;
  memory: MemoryOut;
}
const mb = (b: number): string => `${(b / 2 ** 20).toFixed(0)} MiB`;

/** Same-answers check, then per-size tables and (with several sizes) scaling, for one kind of data. */
export function renderEngine(results: SizeResult[], title: string, cores: number): string[] {
  const L: string[] = [];
  L.push(`Data: ${title}, sizes ${results.map((x) => `${x.size.toLocaleString()} (${mb(x.data.bytes)} NDJSON)`).join(', ')}. Both engines load the same NDJSON file (ringql through the byte path, in 4 MiB NDJSON bodies). Figures are medians with min–max; ringql in-process figures come from tinybench, DuckDB's from repeated runs in its own process (1 thread, and all ${cores} cores). "big" is the project with the most events, "median" a typical one.`, '');
  // Correctness first: a ratio against a peer that computed something else is meaningless.
  const mismatches: string[] = [];
  for (const s of results) for (const [k, fp] of Object.entries(s.engine.fingerprints)) if (s.duck.fingerprints[k] !== fp) mismatches.push(`${s.size.toLocaleString()} ${k}`);
  L.push(mismatches.length ? `**WARNING: ringql and DuckDB disagree on:** ${mismatches.join('; ')}. The ratios for these are not comparable.` : 'Same answers: for every query and size, ringql\'s result equals DuckDB\'s (row ids, counts and buckets compared) before any time is compared. Warm (bucket-cache) answers were checked equal to full execution.', '');
  const r = { results };
  for (const s of r.results) {
    L.push(`### ${s.size.toLocaleString()} events`, '');
    L.push(`Load: ringql ${(s.engine.loadMs / 1000).toFixed(1)} s in-process (${num(s.size / (s.engine.loadMs / 1000))} events/s), DuckDB read_json ${(s.duck.loadMs / 1000).toFixed(1)} s.`, '');
    L.push('| query | ringql (cold, no cache) | ringql first run | DuckDB 1 thread | DuckDB all cores | ringql ÷ DuckDB 1t | ringql ÷ DuckDB all |', '|---|---|---|---|---|---|---|');
    for (const k of Object.keys(s.engine.cold)) {
      const e = s.engine.cold[k]!, d1 = s.duck.t1[k], dA = s.duck.tAll[k];
      L.push(`| ${k} | ${fmtMs(e)} | ${num(s.engine.firstRun[k] ?? NaN)} ms | ${d1 ? fmtMs(d1) : '–'} | ${dA ? fmtMs(dA) : '–'} | ${d1 ? ratio(e.median, d1.median) : '–'} | ${dA ? ratio(e.median, dA.median) : '–'} |`);
    }
    L.push('', '"cold" = no result cache and no bucket cache: parse of the request, plan, execution and JSON body every time (the dictionary predicate memo, which persists across queries, is warm after the first run; "first run" is the very first execution in the process).', '');
    L.push('| usage.api-counts warm (bucket cache) | ringql | ÷ DuckDB 1 thread | ÷ DuckDB all cores |', '|---|---|---|---|');
    for (const [k, f] of Object.entries(s.engine.warm)) L.push(`| ${k} | ${fmtMs(f)} | ${ratio(f.median, s.duck.t1[k]!.median)} | ${ratio(f.median, s.duck.tAll[k]!.median)} |`);
    L.push('', '| other (ringql) | time |', '|---|---|');
    for (const [k, f] of Object.entries(s.engine.other)) L.push(`| ${k} | ${fmtMs(f)}${k.startsWith('ingest') ? ` (${num(500 / (f.median / 1000))} events/s)` : ''} |`);
    L.push('', `Memory (ringql's process while loading, no peer in it): resident growth ${mb(s.memory.rssGrowth)} (peak ${mb(s.memory.peakGrowth)}) for ${mb(s.memory.ndjsonBytes)} of NDJSON: **${(s.memory.rssGrowth / s.memory.ndjsonBytes).toFixed(3)} bytes per NDJSON byte** (store-counted ${(s.memory.counted / s.memory.ndjsonBytes).toFixed(3)}); heap used ${mb(s.memory.heapUsed)}.`, '');
  }

  if (r.results.length > 1) {
    L.push('### Scaling', '', '| figure | ' + r.results.map((s) => s.size.toLocaleString()).join(' | ') + ' |', '|---|' + r.results.map(() => '---|').join(''));
    const keys = ['logs.all default [big]', 'usage.api-counts daily [big]', 'usage.api-counts daily [median]'];
    for (const k of keys) L.push(`| ${k} cold | ${r.results.map((s) => fmtMs(s.engine.cold[k]!)).join(' | ')} |`);
    for (const k of keys.slice(1)) L.push(`| ${k} warm | ${r.results.map((s) => fmtMs(s.engine.warm[k]!)).join(' | ')} |`);
    for (const k of keys.slice(1)) L.push(`| ${k} DuckDB 1t | ${r.results.map((s) => fmtMs(s.duck.t1[k]!)).join(' | ')} |`);
    L.push(`| memory per NDJSON byte | ${r.results.map((s) => (s.memory.rssGrowth / s.memory.ndjsonBytes).toFixed(2)).join(' | ')} |`, '');
  }

  return L;
}
