// `npm run crash [-- --cycles N --clients N --fsync always|interval]`: the long crash test by hand.

import { crashTest } from './crash-core.ts';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : fallback;
};
const cycles = Number(arg('--cycles', '20'));
const clients = Number(arg('--clients', '4'));
const fsync = arg('--fsync', 'interval');
if (!Number.isInteger(cycles) || cycles < 1 || !Number.isInteger(clients) || clients < 1 || (fsync !== 'always' && fsync !== 'interval')) {
  process.stderr.write('crash: --cycles and --clients take positive integers, --fsync always or interval\n');
  process.exit(2);
}
const r = await crashTest({ cycles, clients, batchSize: 50, fsync, log: (l) => process.stderr.write(l + '\n') });
process.stdout.write(`${r.cycles} kill -9 cycles, ${r.acknowledged} batches acknowledged, ${r.unknown} cut mid-request; ${r.failures.length} failures\n`);
for (const f of r.failures.slice(0, 20)) process.stdout.write(`  ${f}\n`);
process.exit(r.failures.length ? 1 : 0);
