// Child process: ringql's in-process figures for one data size (no DuckDB in this process). Prints one
// JSON line with every figure and the query results' fingerprints (compared with the peer's).
//   node --expose-gc --import tsx bench/engine-child.ts <ndjson-file> <events> <timeMs>

import { loadEngine, runCold, runColdServed, runWarm, tiny, parsePlanTasks, ingestTask } from './engine-bench.ts';
import { benchQueries } from './queries.ts';
import { fingerprint } from './fingerprint.ts';
import { figure, timeRuns, progress, type Figure } from './stats.ts';

const [path, eventsArg, timeArg] = process.argv.slice(2);
const data = { path: path!, events: Number(eventsArg), bytes: 0 };
const timeMs = Number(timeArg ?? 1000);

const eng = await loadEngine(data);
progress(`ringql loaded ${data.events.toLocaleString()} events in ${(eng.loadMs / 1000).toFixed(1)} s; big project ${eng.projects.big}, median ${eng.projects.median}`);
const out: Record<string, unknown> = { loadMs: eng.loadMs, memory: eng.memory, projects: eng.projects, cold: {}, firstRun: {}, warm: {}, fingerprints: {}, other: {} };
const cold = out.cold as Record<string, Figure>, first = out.firstRun as Record<string, number>, fps = out.fingerprints as Record<string, string>;

for (const [label, project] of Object.entries(eng.projects)) {
  const qs = benchQueries(project);
  // The very first execution of each (predicate memo and JIT cold), then tinybench on repeats.
  for (const q of qs) {
    const t = performance.now();
    const r = runCold(eng, q);
    first[`${q.name} [${label}]`] = performance.now() - t;
    fps[`${q.name} [${label}]`] = fingerprint(q, JSON.parse(r.body.toString()).result as Record<string, unknown>[]);
  }
  const res = await tiny(qs.map((q) => [`${q.name} [${label}]`, () => runColdServed(eng, q)]), timeMs);
  for (const [k, v] of res) cold[k] = v;
  // Warm: usage.api-counts through the service (bucket cache) after its first computation.
  for (const q of qs.filter((x) => x.endpoint === 'usage.api-counts')) {
    const firstWarm = await runWarm(eng, q);
    const again = await runWarm(eng, q);
    if (!again.cache.includes('bucket')) progress(`warning: ${q.name} warm answer came from ${again.cache}, not the bucket cache`);
    if (again.body.toString() !== runCold(eng, q).body.toString()) throw new Error(`${q.name}: bucket-cache answer differs from full execution`);
    (out.warm as Record<string, Figure>)[`${q.name} [${label}]`] = figure(await timeRuns(() => runWarm(eng, q), 200, 5));
    void firstWarm;
  }
  progress(`ringql figures done for the ${label} project`);
}
const other = await tiny([...parsePlanTasks(eng, eng.projects.big), await ingestTask(data)], timeMs);
for (const [k, v] of other) (out.other as Record<string, Figure>)[k] = v;
console.log(JSON.stringify(out));
process.exit(0);
