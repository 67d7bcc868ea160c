// GROUP BY project with COUNT(*) (and MIN/MAX of timestamp) over one in-process store: the rule
// ProjectAggregateFromRuns against the general HashAggregate of the same logical plan, CPU ms of the first run and the best of 5 more.
// Run: npx tsx bench/project-aggregate.ts [events]   (default 200,000 generated edge events)

import { cpuUsage } from 'node:process';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import { catalogFromStore } from '../src/endpoints/store-catalog.ts';
import { planSqlOnCatalog } from '../src/endpoints/query-sql.ts';
import { planPhysical } from '../src/exec/physical/plan-physical.ts';
import type { PhysicalNode, PhysicalPlan } from '../src/exec/physical/physical-plan.ts';
import { runToJson } from '../src/exec/run.ts';
import { generateEvents } from '../src/gen/generate.ts';

const EVENTS = Number(process.argv[2] ?? 200_000);
const NOW = Math.floor(Date.now() / 3_600_000) * 3_600_000_000;
const QUERIES = [
  'select project, count(*) as n from `edge.logs.prod` group by project order by n desc, project limit 20',
  'select project, count(*) as n, min(timestamp) as a, max(timestamp) as b from `edge.logs.prod` group by project',
];

/** The plan with every ProjectAggregate node replaced by the general HashAggregate over its input. */
function general(plan: PhysicalPlan): PhysicalPlan {
  const swap = (n: PhysicalNode): PhysicalNode => n.op === 'ProjectAggregate'
    ? { op: 'Aggregate', logical: n.logical, input: planPhysical(n.logical.input).root, rules: [] }
    : 'input' in n ? { ...n, input: swap(n.input) } as PhysicalNode : n;
  return { ...plan, root: swap(plan.root) };
}

/** CPU ms of the first (cold: code not yet optimised, as in a one-shot `ringql query`) run and the best of 5 more. */
function cpuMs(f: () => void): { first: number; best: number } {
  const runs: number[] = [];
  for (let i = 0; i < 6; i++) {
    const c = cpuUsage();
    f();
    const d = cpuUsage(c);
    runs.push((d.user + d.system) / 1000);
  }
  return { first: runs[0]!, best: Math.min(...runs.slice(1)) };
}

const store = new Store(defaultStoreConfig({}));
const src = store.source('edge.logs.prod')!;
let batch: unknown[] = [];
for (const g of generateEvents({ events: EVENTS, projects: 40, days: 2, seed: 3, endUs: NOW, sources: ['edge.logs.prod'] })) {
  batch.push(g.event);
  if (batch.length === 1000) { src.ingest(batch, NOW); batch = []; }
}
if (batch.length) src.ingest(batch, NOW);
const catalog = catalogFromStore(store);
for (const sql of QUERIES) {
  const fast = planSqlOnCatalog(catalog, sql, { nowUs: NOW }).physical;
  const slow = general(fast);
  const s = cpuMs(() => runToJson(slow, { maxRows: null }));
  const f = cpuMs(() => runToJson(fast, { maxRows: null }));
  const same = runToJson(fast, { maxRows: null }).body.equals(runToJson(slow, { maxRows: null }).body);
  process.stdout.write(`${EVENTS} events, ${sql.slice(0, 70)}…: CPU ms first / best of 5: ProjectAggregateFromRuns ${f.first.toFixed(1)} / ${f.best.toFixed(1)}, HashAggregate ${s.first.toFixed(1)} / ${s.best.toFixed(1)} (same answer: ${same})\n`);
}
