// Cold logs.all [big] as bench/engine-child.ts times it (runColdServed), with the GCs that ran during the runs:
// per-query median/CPU, scavenges and mark-compacts per 1000 queries and their pause. Issue 14's young-generation row.
//   node --expose-gc [--max-semi-space-size=N] --import tsx bench/young-gen-probe.ts <ndjson-file> <events> [runs] [rounds]
// PROBE_DROP=1: bodies are dropped after each run (runCold, as the bench timed them before 2026-11-25 13:30).

import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { loadEngine, runCold, runColdServed } from './engine-bench.ts';
import { benchQueries, type BenchQuery } from './queries.ts';
import { figure, num, progress } from './stats.ts';
import { INGEST_ADDON } from '../src/store/native-ingest.ts';

const [path, eventsArg, runsArg, roundsArg] = process.argv.slice(2);
const RUNS = Number(runsArg ?? 3000);
const ROUNDS = Number(roundsArg ?? 3);

interface GcTally { minor: number; major: number; minorMs: number; majorMs: number }
const tally: GcTally = { minor: 0, major: 0, minorMs: 0, majorMs: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) { tally.minor++; tally.minorMs += e.duration; } else { tally.major++; tally.majorMs += e.duration; }
  }
}).observe({ entryTypes: ['gc'] });

const newSpace = (): number => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;

// PROBE_TRIM=<bytes>: another glibc trim threshold than MALLOC_SETTINGS' for the load and the queries (before/after runs).
if (process.env.PROBE_TRIM) INGEST_ADDON.mallocTune(0, Number(process.env.PROBE_TRIM), 0);
const eng = await loadEngine({ path: path!, events: Number(eventsArg), bytes: 0 });
const mib = (b: number): string => (b / 2 ** 20).toFixed(1);
process.stdout.write(`loaded: resident growth ${mib(eng.memory.rssGrowth)} MiB (peak ${mib(eng.memory.peakGrowth)}), counted ${mib(eng.memory.counted)} MiB\n`);
progress(`loaded ${eng.memory.events} events; big project ${eng.projects.big}; new space ${(newSpace() / 2 ** 20).toFixed(1)} MiB`);
const once = (q: BenchQuery): unknown => (process.env.PROBE_DROP === '1' ? runCold(eng, q) : runColdServed(eng, q));
const qs = benchQueries(eng.projects.big).filter((q) => q.endpoint === 'logs.all' && !q.params.sql);
for (const q of qs) for (let i = 0; i < 300; i++) once(q);
for (let round = 0; round < ROUNDS; round++) {
  for (const q of qs) {
    const times: number[] = [];
    Object.assign(tally, { minor: 0, major: 0, minorMs: 0, majorMs: 0 });
    const c0 = process.cpuUsage(), f0 = process.resourceUsage().minorPageFault;
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      once(q);
      times.push(performance.now() - t);
    }
    const c = process.cpuUsage(c0), faults = process.resourceUsage().minorPageFault - f0;
    await new Promise((r) => setTimeout(r, 10)); // let the observer deliver this round's GC entries
    const f = figure(times);
    const per1k = (x: number): string => num((x * 1000) / RUNS);
    process.stdout.write(`${q.name}: median ${num(f.median)} ms, CPU ${num((c.user + c.system) / RUNS)} µs/query, ` +
      `scavenges ${per1k(tally.minor)}/1k queries (${num(tally.minorMs / Math.max(1, tally.minor))} ms each), ` +
      `major ${per1k(tally.major)}/1k (${num(tally.majorMs)} ms total), page faults ${num(faults / RUNS)}/query, new space ${(newSpace() / 2 ** 20).toFixed(1)} MiB\n`);
  }
}
process.exit(0);
