// `npm run hostile [-- --scale N --seed S]`: the hostile-input run against a real ringql process
// (scale 1 is the short pass CI runs inside `npm test`); prints each class and exits 1 on any failure.

import { knownLimits, runHostile } from './hostile-core.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v <= 0) {
    process.stderr.write(`hostile: ${name} needs a positive integer\n`);
    process.exit(2);
  }
  return v;
}

const scale = arg('--scale', 5);
const seed = arg('--seed', Date.now() % 1_000_000);
process.stderr.write(`hostile: scale ${scale}, seed ${seed}\n`);
const reports = await runHostile({ seed, scale, log: (l) => process.stderr.write(l + '\n') });
let failed = 0;
for (const r of reports) {
  process.stdout.write(`${r.failures.length ? 'FAIL' : 'ok  '} ${r.name}: ${r.probes} probes\n`);
  for (const f of r.failures.slice(0, 20)) process.stdout.write(`     ${f}\n`);
  failed += r.failures.length;
}
for (const k of knownLimits) process.stdout.write(`known limit: ${k}\n`);
process.exit(failed ? 1 : 0);
