// `npm run bench [-- --quick]`: generates seeded edge data, measures ringql in-process (tinybench), the
// DuckDB peer on the same file, HTTP against raw uWebSockets.js, memory and scaling, a 3-node cluster
// (bench/cluster-run.ts), and writes bench/RESULTS.md. Every ratio compares figures taken in this same run.

import { writeFileSync } from 'node:fs';
import { describeMachine } from './machine.ts';
import { edgeData, type DataFile } from './data.ts';
import { runChild } from './child.ts';
import { httpRun, type HttpFigures } from './http-run.ts';
import { renderReport, type SizeResult } from './report.ts';
import { progress } from './stats.ts';
import { measurePrepareOverhead, overheadTable } from './prepare-overhead.ts';
import { clusterBench } from './cluster-run.ts';
import { renderCluster } from './cluster-report.ts';
import type { EngineOut, DuckOut } from './report.ts';

const HEAP_MB = 20_480;

const quick = process.argv.includes('--quick');
const sizes = quick ? [200_000] : [1_000_000, 5_000_000];
const timeMs = quick ? 300 : 1000;
const duckReps = quick ? 5 : 15;
const started = performance.now();

const machine = describeMachine();
progress(`${quick ? 'quick' : 'full'} run on ${machine.cpu} (${machine.cores} cores, ${machine.memoryGiB} GiB), sizes ${sizes.map((s) => s.toLocaleString()).join(', ')}`);
const results: SizeResult[] = [];
let httpFigures: HttpFigures | null = null;
for (const size of sizes) {
  const data: DataFile = edgeData(size);
  progress(`size ${size.toLocaleString()}: ringql in-process`);
  // The store of 5M edge events needs more than V8's default ~4 GB heap.
  const engine = await runChild<EngineOut>('engine-child.ts', [data.path, String(size), String(timeMs)], ['--expose-gc', `--max-old-space-size=${HEAP_MB}`]);
  progress(`size ${size.toLocaleString()}: duckdb peer`);
  const duck = await runChild<DuckOut>('duck-child.ts', [data.path, String(duckReps), engine.projects.big, engine.projects.median]);
  results.push({ size, data, engine, duck, memory: engine.memory });
  if (httpFigures === null) {
    progress(`size ${size.toLocaleString()}: HTTP`);
    httpFigures = await httpRun(data, engine.projects.big, quick ? 5 : 10);
  }
}
progress('prepare-once overhead');
const overhead = overheadTable(await measurePrepareOverhead(timeMs));
progress('cluster: 3 nats-server + 3 ringql nodes');
let cluster: string;
try {
  const text = renderCluster(await clusterBench(quick));
  writeFileSync(new URL('./CLUSTER-RUN.md', import.meta.url), text);
  cluster = text.replace(/^#/gm, '##');
} catch (err) {
  // The rest of a long run is kept; the reason is in the report.
  cluster = `## Cluster bench\n\nNot measured: ${err instanceof Error ? err.message : String(err)}\n`;
}
const report = renderReport({ quick, machine, results, http: httpFigures!, minutes: (performance.now() - started) / 60_000 }) +
  `\n## Per-request planning overhead (prepare once)\n\n${overhead}\n\n${cluster}\n`;
writeFileSync(new URL('./RESULTS.md', import.meta.url), report);
process.stdout.write(report);
progress(`wrote bench/RESULTS.md in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
