// `npm run soak [-- --seconds N]`: the full load-and-fault run (default 60 s); prints the report and
// exits 1 when anything it checks did not hold.

import { soak } from './soak-core.ts';
import { verdicts } from './verdicts.ts';

const i = process.argv.indexOf('--seconds');
const seconds = i >= 0 ? Number(process.argv[i + 1]) : 60;
if (!Number.isFinite(seconds) || seconds <= 0) {
  process.stderr.write('soak: --seconds needs a positive number\n');
  process.exit(2);
}
const report = await soak(seconds, (line) => process.stderr.write(line + '\n'));
process.stdout.write(JSON.stringify(report, null, 2) + '\n');
const failed = verdicts(report).filter((v) => !v.ok);
for (const v of verdicts(report)) process.stdout.write(`${v.ok ? 'ok  ' : 'FAIL'} ${v.what}\n`);
process.exit(failed.length ? 1 : 0);
