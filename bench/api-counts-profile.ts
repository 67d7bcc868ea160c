// Profiling aid for issue 15: loads N demo events and runs one benchmark query cold in a loop, printing
// the median time; run under --cpu-prof to see where a cold usage.api-counts goes.
//   node --expose-gc --import tsx bench/api-counts-profile.ts [events=200000] [query name] [reps=30] [small]

import { edgeData } from './data.ts';
import { smallEdgeData } from './small-events.ts';
import { loadEngine, runCold } from './engine-bench.ts';
import { benchQueries } from './queries.ts';
import { figure, fmtMs, progress } from './stats.ts';

const [eventsArg, nameArg, repsArg, kind] = process.argv.slice(2);
const events = Number(eventsArg ?? 200_000);
const data = kind === 'small' ? smallEdgeData(events) : edgeData(events);
const eng = await loadEngine(data);
progress(`loaded ${events} in ${(eng.loadMs / 1000).toFixed(1)} s`);
for (const [label, project] of Object.entries(eng.projects)) {
  const q = benchQueries(project).find((x) => x.name === (nameArg ?? 'usage.api-counts daily'))!;
  const out: number[] = [];
  let body = '';
  for (let i = 0; i < Number(repsArg ?? 30); i++) {
    const t = performance.now();
    body = runCold(eng, q).body.toString();
    out.push(performance.now() - t);
  }
  progress(`${q.name} [${label}] ${fmtMs(figure(out))} ${body.slice(0, 200)}`);
}
process.exit(0);
