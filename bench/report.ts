// Renders bench/RESULTS.md from one run's figures: correctness check against the peer, per-size tables,
// scaling, memory, HTTP, and the targets of the benchmark issue with PASS/MISS.

import type { Machine } from './machine.ts';
import { GAP_CAUSES } from './gaps.ts';
import type { DataFile } from './data.ts';
import type { HttpFigures } from './http-run.ts';
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
}
export interface SizeResult {
  size: number;
  data: DataFile;
  engine: EngineOut;
  duck: DuckOut;
  memory: MemoryOut;
}
interface ReportInput {
  quick: boolean;
  machine: Machine;
  results: SizeResult[];
  http: HttpFigures;
  minutes: number;
}

const mb = (b: number): string => `${(b / 2 ** 20).toFixed(0)} MiB`;

export function renderReport(r: ReportInput): string {
  const L: string[] = [];
  const last = r.results[r.results.length - 1]!;
  L.push('# ringql benchmark results', '');
  L.push(`Run: ${r.quick ? '**quick** (small data; targets are defined at 5M events, so PASS/MISS below is indicative only)' : 'full'}, ${new Date().toISOString().slice(0, 16)}Z, ${r.minutes.toFixed(1)} min. Regenerate with \`npm run bench\` (\`-- --quick\` for the short run).`, '');
  L.push(`Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memoryGiB} GiB, Node ${r.machine.node}, ${r.machine.os}; load generator: ${r.machine.wrk ?? 'autocannon (wrk not installed)'}.`, '');
  L.push(`Data: the demo generator's edge events (seed fixed), 1,000 projects over 7 days, sizes ${r.results.map((x) => `${x.size.toLocaleString()} (${mb(x.data.bytes)} NDJSON)`).join(', ')}. Both engines load the same NDJSON file. Figures are medians with min–max; ringql in-process figures come from tinybench, DuckDB's from repeated runs in its own process (1 thread, and all ${r.machine.cores} cores). "big" is the project with the most events (the generator's \`default\`, about 18% of all rows), "median" a typical one.`, '');

  // Correctness first: a ratio against a peer that computed something else is meaningless.
  const mismatches: string[] = [];
  for (const s of r.results) for (const [k, fp] of Object.entries(s.engine.fingerprints)) if (s.duck.fingerprints[k] !== fp) mismatches.push(`${s.size.toLocaleString()} ${k}`);
  L.push('## Same answers', '');
  L.push(mismatches.length ? `**WARNING: ringql and DuckDB disagree on:** ${mismatches.join('; ')}. The ratios for these are not comparable.` : 'For every query and size, ringql\'s result equals DuckDB\'s (row ids, counts and buckets compared) before any time is compared. Warm (bucket-cache) answers were checked equal to full execution.', '');

  for (const s of r.results) {
    L.push(`## ${s.size.toLocaleString()} events`, '');
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
    L.push('', `Memory (ringql's process while loading, no peer in it): resident growth ${mb(s.memory.rssGrowth)} (peak ${mb(s.memory.peakGrowth)}) for ${mb(s.memory.ndjsonBytes)} of NDJSON: **${(s.memory.rssGrowth / s.memory.ndjsonBytes).toFixed(2)} bytes per NDJSON byte**; heap used ${mb(s.memory.heapUsed)}.`, '');
  }

  if (r.results.length > 1) {
    L.push('## Scaling', '', '| figure | ' + r.results.map((s) => s.size.toLocaleString()).join(' | ') + ' |', '|---|' + r.results.map(() => '---|').join(''));
    const keys = ['logs.all default [big]', 'usage.api-counts daily [big]', 'usage.api-counts daily [median]'];
    for (const k of keys) L.push(`| ${k} cold | ${r.results.map((s) => fmtMs(s.engine.cold[k]!)).join(' | ')} |`);
    for (const k of keys.slice(1)) L.push(`| ${k} warm | ${r.results.map((s) => fmtMs(s.engine.warm[k]!)).join(' | ')} |`);
    for (const k of keys.slice(1)) L.push(`| ${k} DuckDB 1t | ${r.results.map((s) => fmtMs(s.duck.t1[k]!)).join(' | ')} |`);
    L.push(`| memory per NDJSON byte | ${r.results.map((s) => (s.memory.rssGrowth / s.memory.ndjsonBytes).toFixed(2)).join(' | ')} |`, '');
  }

  const h = r.http;
  L.push('## HTTP (loopback)', '');
  L.push(`Server and peer each run alone in a child process; the load generator (${h.pairs[0]?.ringql.tool ?? 'wrk'}, 32 connections) is a separate process. This machine has ${r.machine.cores} cores, so generator and server share them: the raw-uWS figure shows where the generator itself tops out.`, '');
  L.push(`Ingest: ${h.ingest.events.toLocaleString()} events in 500-event JSON bodies (4 in flight) in ${(h.ingest.ms / 1000).toFixed(1)} s = **${num(h.ingest.events / (h.ingest.ms / 1000))} events/s** (${num(h.ingest.bytes / 2 ** 20 / (h.ingest.ms / 1000))} MiB/s), while ${h.ingest.queriesDuring} logs.all queries ran.`, '');
  L.push('| request | body | ringql req/s | p50 / p99 | raw uWS req/s (same bytes) | p50 / p99 | ringql ÷ raw |', '|---|---|---|---|---|---|---|');
  for (const p of h.pairs) L.push(`| ${p.name} (${p.cacheHeader}) | ${p.bytes} B | ${num(p.ringql.reqPerSec)} | ${num(p.ringql.p50ms)} / ${num(p.ringql.p99ms)} ms | ${num(p.raw.reqPerSec)} | ${num(p.raw.p50ms)} / ${num(p.raw.p99ms)} ms | ${ratio(p.ringql.reqPerSec, p.raw.reqPerSec)} |`);
  L.push('');

  // Targets at the largest size measured.
  const k = (q: string): string => `${q} [big]`;
  const e = last.engine, d = last.duck;
  const warmDaily = r.results.map((s) => s.engine.warm[k('usage.api-counts daily')]!.median);
  const flat = Math.max(...warmDaily) / Math.min(...warmDaily);
  const rows: [string, string, string, boolean][] = [
    ['logs.all default, engine ÷ DuckDB (1 thread)', '≤ 0.05', ratio(e.cold[k('logs.all default')]!.median, d.t1[k('logs.all default')]!.median), e.cold[k('logs.all default')]!.median / d.t1[k('logs.all default')]!.median <= 0.05],
    ['usage.api-counts daily cold ÷ DuckDB (1 thread)', '≤ 1.0', `${ratio(e.cold[k('usage.api-counts daily')]!.median, d.t1[k('usage.api-counts daily')]!.median)} (first run ${ratio(e.firstRun[k('usage.api-counts daily')]!, d.t1[k('usage.api-counts daily')]!.median)})`, e.cold[k('usage.api-counts daily')]!.median / d.t1[k('usage.api-counts daily')]!.median <= 1],
    ['usage.api-counts daily warm ÷ DuckDB (1 thread)', '≤ 0.01', ratio(warmDaily[warmDaily.length - 1]!, d.t1[k('usage.api-counts daily')]!.median), warmDaily[warmDaily.length - 1]! / d.t1[k('usage.api-counts daily')]!.median <= 0.01],
    ['… flat across sizes (max ÷ min of warm medians)', '≈ 1', r.results.length > 1 ? num(flat) : 'one size only', r.results.length > 1 && flat <= 1.5],
    ['logs.all default over HTTP ÷ raw uWS', '≥ 0.5', ratio(h.pairs[0]!.ringql.reqPerSec, h.pairs[0]!.raw.reqPerSec), h.pairs[0]!.ringql.reqPerSec / h.pairs[0]!.raw.reqPerSec >= 0.5],
    ['cached usage.api-counts over HTTP ÷ raw uWS', '≥ 0.8', ratio(h.pairs[1]!.ringql.reqPerSec, h.pairs[1]!.raw.reqPerSec), h.pairs[1]!.ringql.reqPerSec / h.pairs[1]!.raw.reqPerSec >= 0.8],
    ['ingest over HTTP, events/s', '≥ 250,000', num(h.ingest.events / (h.ingest.ms / 1000)), h.ingest.events / (h.ingest.ms / 1000) >= 250_000],
    ['resident bytes per event ÷ NDJSON bytes', '≤ 1.0', (last.memory.rssGrowth / last.memory.ndjsonBytes).toFixed(2), last.memory.rssGrowth / last.memory.ndjsonBytes <= 1],
  ];
  L.push(`## Targets (at ${last.size.toLocaleString()} events, big project)`, '', '| measure | target | measured | |', '|---|---|---|---|');
  for (const [m, t, v, ok] of rows) L.push(`| ${m} | ${t} | ${v} | ${ok ? 'PASS' : '**MISS**'} |`);
  L.push('');
  const missed = rows.filter(([, , , ok]) => !ok);
  if (missed.length) {
    L.push('### Where a target is missed, and why', '');
    for (const [m] of missed) L.push(`- **${m}.** ${GAP_CAUSES[m] ?? 'Not yet profiled.'}`);
    L.push('');
  }
  return L.join('\n');
}
