// Runs the `npm start` demo load (bench/ingest-bench.ts demoLoad()) N times and prints each figure as a
// JSON line. Usage: npx tsx bench/demo-load.ts [runs]. On the shared 2-core machine, run it as
// `MALLOC_ARENA_MAX=2 chrt -r 1 npx tsx bench/demo-load.ts 3` (SCHED_RR) for quiet-machine figures.
import { demoLoad } from './ingest-bench.ts';

const runs = Number(process.argv[2] ?? 1);
for (let i = 0; i < runs; i++) process.stdout.write(`${JSON.stringify(await demoLoad())}\n`);
