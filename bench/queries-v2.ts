// Issue 15's query targets alone: ringql cold vs DuckDB (1 thread, all cores) on demo and small edge
// events of one size, each engine in its own child process, in the same run. Prints a markdown table.
//   node --import tsx bench/queries-v2.ts [events=1000000] [timeMs=1000] [duckReps=15] [out.json]

import { writeFileSync } from 'node:fs';
import { edgeData } from './data.ts';
import { smallEdgeData } from './small-events.ts';
import { runChild } from './child.ts';
import { fmtMs, ratio, progress } from './stats.ts';
import type { EngineOut, DuckOut } from './report.ts';

const [eventsArg, timeArg, repsArg, outPath] = process.argv.slice(2);
const events = Number(eventsArg ?? 1_000_000), timeMs = Number(timeArg ?? 1000), reps = Number(repsArg ?? 15);
const TARGETS: [string, 't1' | 'tAll', number][] = [
  ['logs.all default', 't1', 0.02], ['usage.api-counts daily', 'tAll', 1.0], ['sandbox count(*)', 'tAll', 1.0],
];

const rows: string[] = ['| data | query | ringql cold | DuckDB 1t | DuckDB all | ÷1t | ÷all | target |', '|---|---|---|---|---|---|---|---|'];
const raw: Record<string, { engine: EngineOut; duck: DuckOut }> = {};
for (const [label, data] of [['demo', edgeData(events)], ['small', smallEdgeData(events)]] as const) {
  progress(`${label} ${events.toLocaleString()}: ringql`);
  const engine = await runChild<EngineOut>('engine-child.ts', [data.path, String(events), String(timeMs)], ['--expose-gc', '--max-old-space-size=20480']);
  progress(`${label} ${events.toLocaleString()}: duckdb`);
  const duck = await runChild<DuckOut>('duck-child.ts', [data.path, String(reps), engine.projects.big, engine.projects.median]);
  raw[label] = { engine, duck };
  for (const key of Object.keys(engine.cold)) {
    if (engine.fingerprints[key] !== duck.fingerprints[key]) progress(`MISMATCH ${label} ${key}`);
    const c = engine.cold[key]!, one = duck.t1[key]!, all = duck.tAll[key]!;
    const t = TARGETS.find(([n]) => key.startsWith(n));
    const target = t ? `${(c.median / (t[1] === 't1' ? one : all).median).toFixed(3)} ≤ ${t[2]} (${t[1]})` : '';
    rows.push(`| ${label} | ${key} | ${fmtMs(c)} | ${fmtMs(one)} | ${fmtMs(all)} | ${ratio(c.median, one.median)} | ${ratio(c.median, all.median)} | ${target} |`);
  }
}
if (outPath) writeFileSync(outPath, JSON.stringify(raw));
process.stdout.write(rows.join('\n') + '\n');
