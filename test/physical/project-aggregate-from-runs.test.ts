// ProjectAggregateFromRuns: GROUP BY project with COUNT(*) and COUNT/MIN/MAX of timestamp or project,
// from the segments' columns. When it fires and when not, and a differential test: many generated
// queries over generated stores (NULL projects, retention, out-of-order arrival) answer byte for byte
// as the general HashAggregate does over the same logical plan, in one go and in the smallest slices.

import { describe, expect, it } from 'vitest';
import { find, logical, physicalText } from './helpers.ts';
import { projectAggregateFromRuns } from '../../src/exec/physical/rules/project-aggregate-from-runs.ts';
import { catalogFromStore } from '../../src/endpoints/store-catalog.ts';
import { planSqlOnCatalog } from '../../src/endpoints/query-sql.ts';
import { explainPhysical } from '../../src/exec/physical/explain-physical.ts';
import { planPhysical } from '../../src/exec/physical/plan-physical.ts';
import type { PhysicalNode, PhysicalPlan } from '../../src/exec/physical/physical-plan.ts';
import { runToJson, runToJsonSliced } from '../../src/exec/run.ts';
import { ExecContext, DEFAULT_BUDGET } from '../../src/exec/context.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';
import { FIXTURE_NOW } from '../helpers/fixture-store.ts';

const EDGE = '`edge.logs.prod`';
const HOUR = 3_600_000_000;

describe('ProjectAggregateFromRuns fires', () => {
  const fires = (sql: string): boolean => projectAggregateFromRuns(find(logical(sql), 'aggregate')) !== null;

  it('for COUNT(*), COUNT/MIN/MAX of timestamp or project grouped by the top-level project', () => {
    expect(fires(`select project, count(*) as n from ${EDGE} group by project order by n desc, project limit 20`)).toBe(true);
    expect(fires(`select t.project, min(t.timestamp) as a, max(timestamp) as b, count(project) as c from ${EDGE} t where timestamp > timestamp '2020-01-01' group by project`)).toBe(true);
    expect(fires(`select p, count(ts) as n from (select project as p, timestamp as ts from ${EDGE}) group by p`)).toBe(true);
    expect(fires(`select count(*) as n from ${EDGE} where project = 'p1' group by project`)).toBe(true);
    expect(physicalText(`select project, count(*) as n from ${EDGE} group by project`))
      .toMatch(/ProjectAggregate keys=\[project\] aggs=\[COUNT\(\*\)\] over Scan edge\.logs\.prod order=any {2}\[ProjectAggregateFromRuns\]/);
  });

  it('not for other aggregates or keys, or rows filtered, reordered or multiplied on the way', () => {
    expect(fires(`select project, count(id) as n from ${EDGE} group by project`)).toBe(false);
    expect(fires(`select project, count(distinct timestamp) as n from ${EDGE} group by project`)).toBe(false);
    expect(fires(`select project, sum(1) as n from ${EDGE} group by project`)).toBe(false);
    expect(fires(`select project, count(1) as n from ${EDGE} group by project`)).toBe(false);
    expect(fires(`select project, event_message, count(*) as n from ${EDGE} group by project, event_message`)).toBe(false);
    expect(fires(`select lower(project) as p, count(*) as n from ${EDGE} group by p`)).toBe(false);
    expect(fires(`select project, count(*) as n from ${EDGE} where event_message is not null group by project`)).toBe(false);
    expect(fires(`select project, count(*) as n from ${EDGE} t cross join unnest(t.metadata) as x group by project`)).toBe(false);
    expect(fires(`select count(*) as n from ${EDGE}`)).toBe(false);
  });
});

/** A seeded generator (LCG), so every run builds the same stores and queries. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

const PROJECTS: (string | null | undefined)[] = ['alpha', 'beta', 'gamma', 'delta', '', null, undefined, 'Beta'];

/**
 * A store of `n` edge events over a few projects (some NULL or missing), arriving out of time order in
 * batches at an advancing `now`, with a short retention so older rows fall below the watermark or are
 * dropped; small segments and blocks, some rows still in the open segment.
 */
function generatedStore(seed: number, n: number): { store: Store; nowUs: number } {
  const next = rng(seed);
  const store = new Store({ ...defaultStoreConfig({}), segmentRows: 64 + Math.floor(next() * 200), blockBytes: 4096, retentionUs: 6 * HOUR });
  const src = store.source('edge.logs.prod')!;
  let now = FIXTURE_NOW - 12 * HOUR;
  for (let done = 0; done < n;) {
    const batch: Record<string, unknown>[] = [];
    for (let i = 0; i < 50 && done < n; i++, done++) {
      const e: Record<string, unknown> = { timestamp: new Date(Math.floor((now - next() * 8 * HOUR) / 1000)).toISOString(), event_message: `m${done}` };
      const p = PROJECTS[Math.floor(next() * PROJECTS.length)];
      if (p !== undefined) e.project = p;
      batch.push(e);
    }
    src.ingest(batch, now);
    now += Math.floor(next() * 0.2 * HOUR);
  }
  compressPendingNow();
  return { store, nowUs: now };
}

const AGGS = ['count(*)', 'count(timestamp)', 'count(project)', 'min(timestamp)', 'max(timestamp)', 'min(project)', 'max(project)'];

/** One GROUP BY project query: 1-4 aggregates, maybe a time range or project pushed down, maybe a projection, an order and a limit. */
function generatedQuery(next: () => number, nowUs: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const aggs = Array.from({ length: 1 + Math.floor(next() * 4) }, (_, i) => `${pick(AGGS)} as a${i}`);
  const at = (h: number): string => `timestamp '${new Date(Math.floor((nowUs - h * HOUR) / 1000)).toISOString()}'`;
  const where = pick(['', '', `where timestamp > ${at(3)}`, `where timestamp between ${at(5)} and ${at(1)}`, "where project = 'beta'", `where timestamp < ${at(100)}`]);
  const from = next() < 0.3 ? `(select project, timestamp, id from ${EDGE})` : EDGE;
  const key = next() < 0.5 ? 'project, ' : '';
  const order = next() < 0.4 ? ` order by ${aggs.map((_, i) => `a${i}`).join(', ')}${key ? ', project' : ''}` : '';
  const limit = order && next() < 0.5 ? ` limit ${1 + Math.floor(next() * 4)}` : '';
  return `select ${key}${aggs.join(', ')} from ${from} ${where} group by project${order}${limit}`;
}

/** The same physical plan with every ProjectAggregate node replaced by the general HashAggregate over its input. */
function generalOf(plan: PhysicalPlan): PhysicalPlan {
  const swap = (n: PhysicalNode): PhysicalNode => {
    if (n.op === 'ProjectAggregate') return { op: 'Aggregate', logical: n.logical, input: planPhysical(n.logical.input).root, rules: [] };
    if ('input' in n) return { ...n, input: swap(n.input) } as PhysicalNode;
    return n;
  };
  return { ...plan, root: swap(plan.root) };
}

describe('ProjectAggregateFromRuns answers as the general aggregation does', () => {
  it.each([1, 2, 3, 4])('over generated store %i and 40 generated queries', async (seed) => {
    const { store, nowUs } = generatedStore(seed, 1500 + seed * 700);
    const catalog = catalogFromStore(store);
    const next = rng(seed * 7919);
    let nonEmpty = 0;
    for (let q = 0; q < 40; q++) {
      const sql = generatedQuery(next, nowUs);
      const fast = planSqlOnCatalog(catalog, sql, { nowUs }).physical;
      const general = generalOf(fast);
      const want = runToJson(general, { maxRows: null }).body.toString('utf8');
      if (want !== '{"result":[]}') nonEmpty++;
      expect(runToJson(fast, { maxRows: null }).body.toString('utf8'), sql).toBe(want);
      const sliced = await runToJsonSliced(fast, { maxRows: null }, new ExecContext(DEFAULT_BUDGET), 0);
      expect(sliced.body.toString('utf8'), sql).toBe(want);
    }
    // Most generated queries meet rows (the rule fires on all of them: the next test).
    expect(nonEmpty).toBeGreaterThan(20);
  });

  it('fires on every generated query', () => {
    const { store, nowUs } = generatedStore(9, 300);
    const catalog = catalogFromStore(store);
    const next = rng(5);
    for (let q = 0; q < 40; q++) {
      const sql = generatedQuery(next, nowUs);
      expect(explainPhysical(planSqlOnCatalog(catalog, sql, { nowUs }).physical), sql).toContain('[ProjectAggregateFromRuns]');
    }
  });
});
