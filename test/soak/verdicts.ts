// What a soak run must show: nothing but documented statuses, every acknowledged event found, memory
// within its bound, in-flight work finished at SIGTERM and a clean exit.

import type { SoakReport } from './soak-core.ts';

export function verdicts(r: SoakReport): { what: string; ok: boolean }[] {
  const total = (o: Record<string, number>): number => Object.values(o).reduce((a, b) => a + b, 0);
  return [
    { what: `no unexpected status (${r.unexpected.length ? r.unexpected.join('; ') : 'none'})`, ok: r.unexpected.length === 0 },
    { what: `every acknowledged event is queryable (${total(r.acknowledged)} acknowledged, ${total(r.found)} found)`, ok: Object.entries(r.acknowledged).every(([s, n]) => r.found[s] === n) },
    { what: `some events were acknowledged`, ok: total(r.acknowledged) > 0 },
    { what: `peak RSS ${(r.peakRssBytes / 2 ** 20).toFixed(0)} MiB within ${(r.rssBoundBytes / 2 ** 20).toFixed(0)} MiB`, ok: r.peakRssBytes > 0 && r.peakRssBytes <= r.rssBoundBytes },
    { what: `requests in flight at SIGTERM completed (${r.inflightCompleted}/${r.inflightAtSigterm})`, ok: r.inflightCompleted === r.inflightAtSigterm },
    { what: `exit code after SIGTERM is 0 (${r.exitCode})`, ok: r.exitCode === 0 },
  ];
}
