// The four wave-2 issues' "Targets" tables from one run's results: measure | target | measured |
// PASS/MISS ("not run" when --only left its section out). Ratios compare figures of the same run.

import type { RunResults } from './results.ts';
import type { SizeResult } from './report.ts';
import { figure, num } from './stats.ts';

export type Status = 'PASS' | 'MISS' | 'not run';
export interface TargetRow { measure: string; target: string; measured: string; status: Status }

const row = (measure: string, target: string, measured: string, ok: boolean): TargetRow => ({ measure, target, measured, status: ok ? 'PASS' : 'MISS' });
const notRun = (measure: string, target: string, section: string): TargetRow => ({ measure, target, measured: `(not measured: section \`${section}\` not run, or it failed)`, status: 'not run' });
const mib = (b: number): string => `${(b / 2 ** 20).toFixed(0)} MiB`;
const median = (xs: number[]): number => figure(xs).median;

/** ringql cold ÷ DuckDB (1 thread or all cores) for one query, big and median project. */
function duckRatios(s: SizeResult, query: string, peer: 't1' | 'tAll'): number[] {
  return ['big', 'median'].map((p) => s.engine.cold[`${query} [${p}]`]!.median / s.duck[peer][`${query} [${p}]`]!.median);
}

function queryRows(s: SizeResult | undefined, data: string, section: string): TargetRow[] {
  const specs: [string, string, 't1' | 'tAll', number][] = [
    ['`logs.all` default ÷ DuckDB (1 thread)', 'logs.all default', 't1', 0.02],
    ['`usage.api-counts` daily cold ÷ DuckDB (all cores)', 'usage.api-counts daily', 'tAll', 1.0],
    ['sandbox `count(*)` over a project ÷ DuckDB (all cores)', 'sandbox count(*)', 'tAll', 1.0],
  ];
  return specs.map(([m, q, peer, max]) => {
    const measure = `${m}, ${data}`;
    if (!s) return notRun(measure, `≤ ${max}`, section);
    const [big, med] = duckRatios(s, q, peer);
    return row(measure, `≤ ${max}`, `${num(big!)} big / ${num(med!)} median (${s.size.toLocaleString()} events)`, big! <= max && med! <= max);
  });
}

function memoryRow(s: SizeResult | undefined, data: string, section: string): TargetRow {
  const measure = `resident bytes ÷ NDJSON bytes, ${data}`;
  if (!s) return notRun(measure, '≤ 0.25', section);
  const r = s.memory.rssGrowth / s.memory.ndjsonBytes;
  return row(measure, '≤ 0.25', `${r.toFixed(3)} (store-counted ${(s.memory.counted / s.memory.ndjsonBytes).toFixed(3)}; ${s.size.toLocaleString()} events)`, r <= 0.25);
}

export function issue15(r: RunResults): TargetRow[] {
  const demo = r.engine?.[r.engine.length - 1];
  const rows = [memoryRow(demo, 'demo events', 'engine'), memoryRow(r.small, '~480 B edge events', 'small')];
  const h = r.held;
  rows.push(h ? row('edge events held in one process', '≥ 30M', `${h.held.toLocaleString()} (stopped: ${h.stopped}; RSS ${mib(h.rss)}, ${(h.rssGrowth / h.held).toFixed(0)} B/event)`, h.held >= 30_000_000 && h.evicted === 0)
    : notRun('edge events held in one process', '≥ 30M', 'held'));
  rows.push(r.idle ? row('RSS of an empty server after start, whole process tree', '≤ 100 MB', `${(r.idle.bytes / 2 ** 20).toFixed(1)} MiB in ${r.idle.parts.length} process(es)`, r.idle.bytes <= 100 * 2 ** 20)
    : notRun('RSS of an empty server after start, whole process tree', '≤ 100 MB', 'idle'));
  const c = r.cap, capM = c ? `${(c.capBytes / 2 ** 20).toFixed(0)}M` : '512M';
  const capLimit = c ? c.capBytes + 88 * 2 ** 20 : 0; // 600 MB at 512M: the cap plus 88 MiB
  rows.push(c ? row(`process RSS with RINGQL_MAX_MEMORY=${capM} under endless ingest`, `≤ ${mib(capLimit)}, oldest evicted`,
    `max ${mib(c.maxRss)} (end ${mib(c.endRss)}); ${c.evictedForBudget.toLocaleString()} evicted for the budget, ${c.held.toLocaleString()} held; oldest evicted: ${c.oldestEvicted ? 'yes' : 'NO'}, newest queryable: ${c.newestQueryable ? 'yes' : 'NO'}`,
    c.maxRss <= capLimit && c.oldestEvicted && c.newestQueryable && c.evictedForBudget > 0)
    : notRun('process RSS with RINGQL_MAX_MEMORY=512M under endless ingest', '≤ 600 MB, oldest evicted', 'cap'));
  return [...rows, ...queryRows(demo, 'demo events', 'engine'), ...queryRows(r.small, '~480 B edge events', 'small')];
}

export function issue16(r: RunResults): TargetRow[] {
  const rows: TargetRow[] = [];
  const i = r.ingest;
  for (const name of ['demo generator', '~600 B edge events']) {
    const c = i?.corpora.find((x) => x.name === name);
    const m1 = `ingest over HTTP, 500-event batches, events/s, ${name}`, m2 = `in-process ingest cost ÷ \`JSON.parse\` of the same bytes, ${name}`;
    if (!c) { rows.push(notRun(m1, '≥ 100k', 'ingest'), notRun(m2, '≤ 1.0', 'ingest')); continue; }
    const mbs = (c.http.eventsPerS * c.bytes) / c.events / 1e6;
    const f = c.http.first, levels = c.http.levels.map((l) => `${num(l.eventsPerS)} at ${l.inflight}`).join(', ');
    rows.push(row(m1, '≥ 100k', `${num(c.http.eventsPerS)} sustained with ${c.http.inflight} bodies in flight (${mbs.toFixed(1)} MB/s; client CPU ${(c.http.clientCpu * 100).toFixed(0)}% of a core, server ${c.http.serverCpuUs.toFixed(1)} CPU µs/event; the generator alone reaches ${num(c.generator.eventsPerS)}); by bodies in flight: ${levels}; the fresh server's first ${num(f.events)}: ${num(f.eventsPerS)} (${f.serverCpuUs.toFixed(1)} µs/event)`, c.http.eventsPerS >= 100_000));
    rows.push(row(m2, '≤ 1.0', `${(c.bytePathUs / c.parseUs).toFixed(2)} (${c.bytePathUs.toFixed(2)} ÷ ${c.parseUs.toFixed(2)} µs/event)`, c.bytePathUs / c.parseUs <= 1));
  }
  rows.push(i ? row('`npm start` demo load (300k events) to serving', '≤ 3 s', `${i.demo.toLoadedS.toFixed(1)} s to all 300k stored (${i.demo.loadedCpuS.toFixed(1)} s CPU); listening with part of it at ${i.demo.toServingS.toFixed(1)} s`, i.demo.toLoadedS <= 3)
    : notRun('`npm start` demo load (300k events) to serving', '≤ 3 s', 'ingest'));
  const c = r.cli, m = '`ringql query` over a 1 GB NDJSON file ÷ DuckDB reading the same file (all cores)';
  rows.push(c ? row(m, '≤ 1.0', `${num(c.ringql.median / c.duckAll.median)} (medians of ${c.ringql.n} alternated runs: ${(c.ringql.median / 1000).toFixed(2)} s ÷ ${(c.duckAll.median / 1000).toFixed(2)} s over ${(c.data.bytes / 1e9).toFixed(2)} GB; ÷ 1 thread ${num(c.ringql.median / c.duck1.median)}; answers ${c.same ? 'equal' : 'DIFFER'})`, c.same && c.ringql.median <= c.duckAll.median)
    : notRun(m, '≤ 1.0', 'cli'));
  return rows;
}

export function issue18(r: RunResults): TargetRow[] {
  const s = r.serving;
  const m = ['cached `usage.api-counts`: req/s ÷ raw uWS serving the same bytes', '`logs.all` default, each request computed: req/s ÷ raw uWS same-size bytes', 'p99 latency of the cached path at 50% of its max rate (open loop, C generator)'];
  const rows: TargetRow[] = [];
  if (!s) rows.push(notRun(m[0]!, '≥ 0.65', 'serving'), notRun(m[1]!, '≥ 0.35', 'serving'), notRun(m[2]!, '≤ 2 ms', 'serving'));
  else {
    const wrkMax = (k: 'cached' | 'cachedRaw' | 'logs' | 'logsRaw'): string => Math.max(...s.rounds.map((x) => x[k].wrkCpu)).toFixed(2);
    const cached = median(s.rounds.map((x) => x.cached.reqPerSec / x.cachedRaw.reqPerSec));
    const logs = median(s.rounds.map((x) => x.logs.reqPerSec / x.logsRaw.reqPerSec));
    const p99 = median(s.rounds.map((x) => x.half.p99ms));
    rows.push(row(m[0]!, '≥ 0.65', `${num(cached)} median of ${s.rounds.length} (wrk CPU max ${wrkMax('cached')} / ${wrkMax('cachedRaw')})`, cached >= 0.65));
    rows.push(row(m[1]!, '≥ 0.35', `${num(logs)} median of ${s.rounds.length} (wrk CPU max ${wrkMax('logs')} / ${wrkMax('logsRaw')})`, logs >= 0.35));
    rows.push(row(m[2]!, '≤ 2 ms', `${num(p99)} ms median of ${s.rounds.length} (raw uWS at the same rate ${num(median(s.rounds.map((x) => x.halfRaw.p99ms)))} ms; generator late / read lag p99 ${num(median(s.rounds.map((x) => x.half.lateP99ms)))} / ${num(median(s.rounds.map((x) => x.half.readLagP99ms)))} ms)`, p99 <= 2));
  }
  for (const format of ['ndjson', 'csv']) {
    const runs = r.cliStream?.filter((x) => x.format === format);
    const measure = `${format.toUpperCase()} of 100k rows (\`ringql query --format ${format}\`): peak RSS growth`;
    if (!runs?.length) { rows.push(notRun(measure, '≤ 32 MiB', 'serving')); continue; }
    const worst = Math.max(...runs.map((x) => x.big.growthMiB));
    rows.push(row(measure, '≤ 32 MiB', `${worst.toFixed(1)} MiB (worst of ${runs.length}; ${(runs[0]!.big.outBytes / 2 ** 20).toFixed(0)} MiB out)`, worst <= 32));
  }
  if (s) {
    const worst = Math.max(s.mem.ndjson.growthMiB, s.mem.csv.growthMiB);
    rows.push(row('NDJSON/CSV of 10k rows over HTTP (max_limit): peak RSS growth', '≤ 32 MiB', `${s.mem.ndjson.growthMiB.toFixed(1)} / ${s.mem.csv.growthMiB.toFixed(1)} MiB`, worst <= 32 && s.mem.ndjson.streamed && s.mem.csv.streamed));
  }
  return rows;
}

/** bench/RESULTS.md of 2026-11-23 (wave 1, 5M demo events, big project): ringql cold ÷ DuckDB 1 thread. */
const WAVE1_T1: Record<string, number> = {
  'logs.all default': 0.0053, 'logs.all time bounds': 0.0017, 'sandbox dashboard list': 0.109, 'sandbox count(*)': 1.61,
  'sandbox per-minute chart': 1.03, 'usage.api-counts minutely': 0.285, 'usage.api-counts hourly': 0.267, 'usage.api-counts daily': 0.679,
};
/** Run-to-run noise allowed on a wave-1 ratio before "no worse" counts as worse. */
const NOISE = 1.1;

export function issue14(r: RunResults): TargetRow[] {
  const rows: TargetRow[] = [];
  const p = r.prepare, m = 'per-request planning of a saved endpoint: prepared ÷ bind+plan per request before';
  if (!p) rows.push(notRun(m, '< 1 (no parse, bind or plan)', 'prepare'));
  else {
    const worst = Math.max(...p.map((x) => x.preparedUs / x.bindPlanUs)), worstNew = Math.max(...p.map((x) => x.newNowUs / x.newBeforeUs));
    rows.push(row(m, '< 1 (no parse, bind or plan)', `worst ${num(worst)} (${p.map((x) => `${x.name} ${x.preparedUs.toFixed(1)} µs`).join(', ')})`, worst < 1));
    rows.push(row('… with parameter values never seen before: now ÷ before', '< 1', `worst ${num(worstNew)}`, worstNew < 1));
  }
  const demo = r.engine?.[r.engine.length - 1];
  for (const [q, base] of Object.entries(WAVE1_T1)) {
    const measure = `${q} [big] cold ÷ DuckDB 1 thread, no worse than wave 1`;
    if (!demo) { rows.push(notRun(measure, `≤ ${base}`, 'engine')); continue; }
    const v = demo.engine.cold[`${q} [big]`]!.median / demo.duck.t1[`${q} [big]`]!.median;
    rows.push(row(measure, `≤ ${base} (×${NOISE} noise)`, `${num(v)} (${demo.size.toLocaleString()} events)`, v <= base * NOISE));
  }
  const s = r.serving;
  if (s) {
    const cached = median(s.rounds.map((x) => x.cached.reqPerSec / x.cachedRaw.reqPerSec)), logs = median(s.rounds.map((x) => x.logs.reqPerSec / x.logsRaw.reqPerSec));
    rows.push(row('HTTP ÷ raw uWS, logs.all / cached usage.api-counts, no worse than wave 1', '≥ 0.236 / 0.252', `${num(logs)} / ${num(cached)}`, logs >= 0.236 && cached >= 0.252));
  }
  const demoIngest = r.ingest?.corpora.find((x) => x.name === 'demo generator');
  if (demoIngest) rows.push(row('ingest over HTTP, demo events, no worse than wave 1', '≥ 13,721 events/s', num(demoIngest.http.eventsPerS), demoIngest.http.eventsPerS >= 13_721));
  if (demo) { const v = demo.memory.rssGrowth / demo.memory.ndjsonBytes; rows.push(row('resident ÷ NDJSON, demo events, no worse than wave 1', '≤ 1.07', v.toFixed(3), v <= 1.07)); }
  return rows;
}

export function targetTable(rows: TargetRow[]): string[] {
  return ['| measure | target | measured | |', '|---|---|---|---|', ...rows.map((x) => `| ${x.measure} | ${x.target} | ${x.measured} | ${x.status === 'MISS' ? '**MISS**' : x.status} |`)];
}
