// Child process: the DuckDB peer's figures for one data size, with 1 thread and with all cores. Prints
// one JSON line with the figures and result fingerprints.
//   node --import tsx bench/duck-child.ts <ndjson-file> <reps> <project-big> <project-median>

import { openDuck, setThreads, duckJson, timeDuck } from './duck-peer.ts';
import { benchQueries } from './queries.ts';
import { fingerprint } from './fingerprint.ts';
import { figure, progress, type Figure } from './stats.ts';

const [path, repsArg, big, median] = process.argv.slice(2);
const reps = Number(repsArg);
const peer = await openDuck(path!);
const out: Record<string, unknown> = { loadMs: peer.loadMs, t1: {}, tAll: {}, fingerprints: {} };
for (const [label, project] of [['big', big!], ['median', median!]] as const) {
  for (const q of benchQueries(project)) {
    const key = `${q.name} [${label}]`;
    await setThreads(peer, 1);
    const r = await duckJson(peer, q.duck);
    (out.fingerprints as Record<string, string>)[key] = fingerprint(q, JSON.parse(r.json).result as Record<string, unknown>[]);
    (out.t1 as Record<string, Figure>)[key] = figure(await timeDuck(peer, q.duck, reps));
    await setThreads(peer, 'all');
    (out.tAll as Record<string, Figure>)[key] = figure(await timeDuck(peer, q.duck, reps));
  }
  progress(`duckdb figures done for the ${label} project`);
}
peer.close();
console.log(JSON.stringify(out));
process.exit(0);
