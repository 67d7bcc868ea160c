// The rebuild part of the cluster bench: kill -9 one ringql node, watch the survivors' /health every 50 ms
// until they own its partitions and have replayed them, and check every project then counts exactly the
// events acknowledged for it (none lost, none twice).

import { partitionOf } from '../src/cluster/partition.ts';
import { BENCH_PARTITIONS, BENCH_TOKEN, clusterHealth, type BenchNode } from './cluster-procs.ts';

export interface RebuildFigures {
  partitions: number[];
  events: number;
  /** Kill → the survivors list the dead node's partitions as theirs (its membership expired). */
  takeoverS: number;
  /** First seen rebuilding → every one of them caught up (±50 ms polling). */
  rebuildS: number;
  eventsPerS: number;
  /** The longest single-partition replay the survivors logged, ms. */
  loggedMaxMs: number;
  exactlyOnce: boolean;
  mismatches: string[];
}

const COUNT_SQL = encodeURIComponent('select count(*) as n, count(distinct id) as d from edge_logs');

/** Per project, what the survivors answer for count(*) / count(distinct id), checked against `totals`. */
export async function checkCounts(nodes: readonly BenchNode[], totals: ReadonlyMap<string, number>): Promise<string[]> {
  const bad: string[] = [];
  for (const n of nodes) {
    for (const [project, want] of totals) {
      const r = await fetch(`${n.base}/api/endpoints/query/logs.all?project=${project}&sql=${COUNT_SQL}`, { headers: { 'X-API-KEY': BENCH_TOKEN } });
      const body = await r.text();
      if (r.status !== 200 || body !== `{"result":[{"n":${want},"d":${want}}]}`) bad.push(`${n.id} ${project}: ${r.status} ${body.slice(0, 120)} (want ${want})`);
    }
  }
  return bad;
}

export async function killAndRebuild(victim: BenchNode, survivors: readonly BenchNode[], victimPartitions: readonly number[], totals: ReadonlyMap<string, number>): Promise<RebuildFigures> {
  let events = 0;
  for (const [project, n] of totals) if (victimPartitions.includes(partitionOf(project, BENCH_PARTITIONS))) events += n;
  const mark = performance.now();
  victim.child.kill('SIGKILL');
  const t0 = performance.now();
  let takeover = NaN, firstRebuilding = NaN, done = NaN;
  while (Number.isNaN(done)) {
    if (performance.now() - t0 > 120_000) throw new Error('the survivors did not take the partitions over within 120 s');
    const hs = await Promise.all(survivors.map(clusterHealth));
    const owned = new Set(hs.flatMap((h) => h.owned));
    const rebuilding = new Set(hs.flatMap((h) => h.rebuilding));
    const now = performance.now();
    if (Number.isNaN(firstRebuilding) && victimPartitions.some((p) => rebuilding.has(p))) firstRebuilding = now;
    if (Number.isNaN(takeover) && victimPartitions.every((p) => owned.has(p))) takeover = now;
    if (!Number.isNaN(takeover) && victimPartitions.every((p) => !rebuilding.has(p))) done = now;
    else await new Promise((r) => setTimeout(r, 50));
  }
  if (Number.isNaN(firstRebuilding)) firstRebuilding = done; // faster than one poll
  const logged = survivors.flatMap((n) => n.lines.filter((l) => l.t >= mark).map((l) => /rebuilt partition (\d+) \((\d+) messages, (\d+) ms\)/.exec(l.line))).filter((m) => m !== null);
  const loggedMaxMs = Math.max(0, ...logged.filter((m) => victimPartitions.includes(Number(m[1]))).map((m) => Number(m[3])));
  const mismatches = await checkCounts(survivors, totals);
  const rebuildS = Math.max((done - firstRebuilding) / 1000, loggedMaxMs / 1000);
  return {
    partitions: [...victimPartitions], events, takeoverS: (takeover - t0) / 1000, rebuildS, eventsPerS: events / rebuildS,
    loggedMaxMs, exactlyOnce: mismatches.length === 0, mismatches,
  };
}
