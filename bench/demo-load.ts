// Runs the `npm start` demo load (bench/ingest-bench.ts demoLoad()) N times and prints each figure as a
// JSON line. Usage: npx tsx bench/demo-load.ts [runs]
import { demoLoad } from './ingest-bench.ts';

const runs = Number(process.argv[2] ?? 1);
for (let i = 0; i < runs; i++) process.stdout.write(`${JSON.stringify(await demoLoad())}\n`);
