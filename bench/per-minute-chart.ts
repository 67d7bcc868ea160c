// The sandbox per-minute chart alone, in-process and cold (bench/engine-bench.ts's runCold): both plans,
// the first run, then min / p10 / median of 300 runs, and with PROF=<file> a CPU profile of 50 more.
//   RINGQL_BENCH_END_US=<µs> node --expose-gc --import tsx bench/per-minute-chart.ts <ndjson-file> <events>

import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Session } from 'node:inspector/promises';
import { loadEngine, runCold } from './engine-bench.ts';
import { benchQueries } from './queries.ts';
import { END_US } from './data.ts';
import { resolveRequest, planRequest } from '../src/endpoints/execute.ts';
import { explainPhysical } from '../src/exec/physical/explain-physical.ts';
import { explainPlan } from '../src/plan/explain.ts';

const [path, events] = process.argv.slice(2);
const eng = await loadEngine({ path: path!, events: Number(events), bytes: 0 });
console.log(`loaded ${events} events in ${(eng.loadMs / 1000).toFixed(0)} s; big project ${eng.projects.big}`);
const q = benchQueries(eng.projects.big).find((x) => x.name === 'sandbox per-minute chart')!;
const prep = eng.prepared.get(q.endpoint)!;
const physical = planRequest(prep, resolveRequest(prep, new Map(Object.entries(q.params))), eng.service.catalog, END_US).physical;
console.log(explainPlan(physical.logical));
console.log(explainPhysical(physical));
const times: number[] = [];
for (let i = 0; i < 300; i++) {
  const t = performance.now();
  const r = runCold(eng, q);
  times.push(performance.now() - t);
  if (i === 0) console.log(`rows ${r.rowCount}, body ${r.body.length} bytes: ${r.body.toString().slice(0, 100)}…`);
}
const s = times.slice(1).sort((a, b) => a - b);
const at = (p: number): string => s[Math.floor(p * (s.length - 1))]!.toFixed(2);
console.log(`first ${times[0]!.toFixed(1)} ms; then min ${at(0)} p10 ${at(0.1)} median ${at(0.5)} ms; load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
if (process.env.PROF) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  for (let i = 0; i < 50; i++) runCold(eng, q);
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(process.env.PROF, JSON.stringify(profile));
}
process.exit(0);
