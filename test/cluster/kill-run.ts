// `npm run test:cluster [-- --phase-seconds N]`: the cluster kill test at length (default 60 s per phase,
// about 5 minutes in all), printing the schedule, the figures and every violation; exits 1 on any.

import { runKillTest } from './kill-harness.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} takes a positive number, not ${process.argv[i + 1]}`);
  return v;
}

const t0 = Date.now();
const log = (line: string): void => { process.stdout.write(`[${((Date.now() - t0) / 1000).toFixed(1)} s] ${line}\n`); };
const r = await runKillTest({
  phaseSeconds: arg('phase-seconds', 60), projects: arg('projects', 40), partitions: arg('partitions', 16),
  publishers: arg('publishers', 3), queriers: arg('queriers', 3), queryPauseMs: arg('query-pause-ms', 20),
  loop: { projectsPerBatch: 8, eventsPerProject: 25, pauseMs: arg('publish-pause-ms', 10) },
  settleMs: arg('settle-seconds', 60) * 1000, keepDir: true, log,
});
const f = r.ledger.figures;
log(`batches ${f.batches} (${f.failedBatches} failed), acknowledged events ${f.ackedEvents}, queries ${f.queries} (${f.ok} ok, ${f.unavailable} 503), settled in ${r.settledMs} ms`);
log(`logs: ${r.dir}`);
r.ledger.recovery().forEach((x, i) => log(`  ${((r.ledger.disruptions[i]!.at - t0) / 1000).toFixed(1)} s: ${x.what}: ${x.count} 503s, the last sent ${(x.last503Ms / 1000).toFixed(1)} s after it`));
for (const u of r.ledger.unavailable) log(`  ${((u.at - t0) / 1000).toFixed(1)} s: 503 from ${u.node} for ${u.project}: ${u.message}`);
for (const v of r.ledger.violations) log(`VIOLATION ${v}`);
log(r.ledger.violations.length === 0 ? 'PASS' : `FAIL: ${r.ledger.violationCount} violations`);
process.exit(r.ledger.violations.length === 0 ? 0 : 1);
