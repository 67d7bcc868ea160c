// Prepare once with parameters: requests with ever new parameter values to logs.all, usage.api-counts and
// a created endpoint do no parsing, binding or logical planning after create/load (the engine's counters),
// and the plan each gets equals the plan a fresh bind with those values gives (so answers stay the same).

import { describe, expect, it } from 'vitest';
import { createQueryService } from '../../src/endpoints/service.ts';
import { prepareEndpoint } from '../../src/endpoints/prepare.ts';
import { executePlan, planRequest, resolveRequest } from '../../src/endpoints/execute.ts';
import { loadBuiltins } from '../../src/endpoints/endpoint-files.ts';
import { applyInput } from '../../src/endpoints/definition.ts';
import { catalogFromStore } from '../../src/endpoints/store-catalog.ts';
import { planOnce } from '../../src/engine/engine.ts';
import { canonicalPlanKey } from '../../src/plan/canonical.ts';
import { snapshotCounters, type EngineCounters } from '../../src/core/engine-counters.ts';
import { explainBoth, explainPhysical, firedRules } from '../../src/exec/physical/explain-physical.ts';
import type { PhysicalPlan } from '../../src/exec/physical/physical-plan.ts';
import { DEFAULT_BUDGET } from '../../src/exec/context.ts';
import { fixtureStore, FIXTURE_NOW } from '../helpers/fixture-store.ts';

const MIN = 60_000_000;

function moved(before: EngineCounters): Pick<EngineCounters, 'parses' | 'binds' | 'plans'> {
  const now = snapshotCounters();
  return { parses: now.parses - before.parses, binds: now.binds - before.binds, plans: now.plans - before.plans };
}

const NONE = { parses: 0, binds: 0, plans: 0 };

/** EXPLAIN of each subquery's physical plan (EXPLAIN prints the main one only). */
function subqueryTexts(p: PhysicalPlan): string[] {
  return [...p.subqueries.values()].map((root) => explainPhysical({ ...p, root }));
}

const CREATED = {
  name: 'edge.search', cache_duration_seconds: 0,
  query: 'select t.id, t.event_message from `edge.logs.prod` t where t.project = @project and t.timestamp >= cast(@since as timestamp) ' +
    'and regexp_contains(t.event_message, coalesce(@pattern, \'\')) and t.timestamp > timestamp_sub(current_timestamp(), interval 6 hour) order by t.timestamp desc limit 5',
  params: [{ name: 'project', required: true }, { name: 'since', type: 'timestamp' as const }, { name: 'pattern', type: 'regex' as const }],
};

const PROJECTS = ['alpha', 'beta', 'default', 'gamma', 'p1', 'p2', "o'brien", 'ALPHA'];
const STAMPS = [undefined, '', '2025-01-15T08:00:00Z', '2025-01-15T10:30:00.5Z', '2025-01-14T23:59:59Z', '2025-01-15T11:59:00Z'];
const REGEXES = ['alpha', 'beta|default', '^https://alpha', 'p\\d+', '.', 'example\\.com/rest'];

/** Request parameters of many distinct values for each endpoint (names as the endpoints declare them). */
function requests(): { endpoint: string; params: Map<string, string> }[] {
  const out: { endpoint: string; params: Map<string, string> }[] = [];
  const put = (m: Map<string, string>, k: string, v: string | undefined) => (v === undefined ? m : m.set(k, v));
  PROJECTS.forEach((project, i) => {
    for (const [j, start] of STAMPS.entries()) {
      const end = STAMPS[(i + j) % STAMPS.length];
      out.push({ endpoint: 'logs.all', params: put(put(new Map([['project', project]]), 'iso_timestamp_start', start), 'iso_timestamp_end', end) });
      out.push({ endpoint: 'edge.search', params: put(put(new Map([['project', project]]), 'since', start || undefined), 'pattern', REGEXES[(i + j) % REGEXES.length]) });
    }
  });
  for (const interval of ['minutely', 'hourly', 'daily']) for (const project of REGEXES) out.push({ endpoint: 'usage.api-counts', params: new Map([['interval', interval], ['project', project]]) });
  return out;
}

describe('a request with new parameter values does no parsing, binding or planning', () => {
  it('logs.all, usage.api-counts and a created endpoint, after load and create', async () => {
    let now = FIXTURE_NOW;
    const svc = await createQueryService({ store: fixtureStore(), stateDir: null, nowMicros: () => now, cache: { sweepMs: 0 } });
    const b0 = snapshotCounters();
    await svc.createEndpoint(CREATED);
    const made = moved(b0);
    expect(made.parses).toBe(1);
    expect(made.binds).toBeGreaterThan(0);
    expect(made.plans).toBeGreaterThan(0);
    const b1 = snapshotCounters();
    let rows = 0;
    for (const [i, r] of requests().entries()) {
      now = FIXTURE_NOW + i * 7_000_001; // the clock moves too
      const res = await svc.run({ endpoint: r.endpoint, params: r.params, redactHeader: false });
      rows += res.rowCount;
    }
    expect(rows).toBeGreaterThan(0);
    expect(moved(b1)).toEqual(NONE);
    // Updating the query prepares again.
    const b2 = snapshotCounters();
    await svc.updateEndpoint('edge.search', { query: CREATED.query.replace('limit 5', 'limit 6') });
    expect(moved(b2).parses).toBe(1);
    expect(moved(b2).binds).toBeGreaterThan(0);
    svc.close();
  });
});

describe('a prepared plan with new values put in equals a fresh bind with those values', () => {
  const catalog = catalogFromStore(fixtureStore());
  const defs = new Map(loadBuiltins().map((b) => [b.def.name, b.def]));
  defs.set(CREATED.name, applyInput(null, CREATED, () => 'id-edge-search'));
  const preps = new Map([...defs].map(([name, def]) => [name, prepareEndpoint(def, catalog, FIXTURE_NOW)]));

  it('for every request above, logical and physical, as time passes', () => {
    for (const [i, r] of requests().entries()) {
      const prep = preps.get(r.endpoint)!;
      const req = resolveRequest(prep, r.params);
      const at = FIXTURE_NOW + i * 13 * MIN;
      const inst = planRequest(prep, req, catalog, at);
      const fresh = planOnce(prep.query, catalog, req.values, at, prep.engine.opts.physical);
      const what = `${r.endpoint} ${JSON.stringify([...r.params])}`;
      expect(canonicalPlanKey(inst.logical), what).toBe(canonicalPlanKey(fresh.logical));
      expect(explainBoth(inst.physical), what).toBe(explainBoth(fresh.physical));
      expect(subqueryTexts(inst.physical), what).toEqual(subqueryTexts(fresh.physical));
      // The physical plan gets the values too (it is not planned again): the same rows as a fresh plan.
      if (!firedRules(inst.physical).includes('BucketAggregateFromCache')) {
        expect(executePlan(inst.physical, prep, false, DEFAULT_BUDGET, 0).body.toString(), what).toBe(executePlan(fresh.physical, prep, false, DEFAULT_BUDGET, 0).body.toString());
      }
    }
  });

  it('values that change what folds (a cast that fails, a CASE on a free parameter) bind their own shape, and match a fresh bind', () => {
    const def = applyInput(null, {
      name: 'shapes', query: "select case when @mode = 'ids' then t.id else t.event_message end as v from `edge.logs.prod` t where t.timestamp > cast(@after as timestamp) and t.project = @project",
    }, () => 'id-shapes');
    const prep = prepareEndpoint(def, catalog, FIXTURE_NOW);
    for (const mode of ['ids', 'text', '', 'ids']) {
      for (const after of ['2025-01-15T10:00:00Z', 'not a time', '', '2025-01-15T11:00:00Z']) {
        for (const project of ['alpha', '']) {
          const req = resolveRequest(prep, new Map([['mode', mode], ['after', after], ['project', project]]));
          const inst = planRequest(prep, req, catalog, FIXTURE_NOW);
          const fresh = planOnce(prep.query, catalog, req.values, FIXTURE_NOW, prep.engine.opts.physical);
          expect(canonicalPlanKey(inst.logical)).toBe(canonicalPlanKey(fresh.logical));
          expect(explainBoth(inst.physical)).toBe(explainBoth(fresh.physical));
        }
      }
    }
    // A parameter inside a subquery: same plan and same rows as a fresh bind.
    const sub = prepareEndpoint(applyInput(null, {
      name: 'sub', query: 'select t.id from `edge.logs.prod` t where t.id in (select s.id from `edge.logs.prod` s where s.project = @project) order by t.timestamp desc limit 4',
    }, () => 'id-sub'), catalog, FIXTURE_NOW);
    const answers = new Set<string>();
    for (const project of ['alpha', 'beta', 'nobody', 'alpha']) {
      const req = resolveRequest(sub, new Map([['project', project]]));
      const inst = planRequest(sub, req, catalog, FIXTURE_NOW);
      const fresh = planOnce(sub.query, catalog, req.values, FIXTURE_NOW, sub.engine.opts.physical);
      expect(explainBoth(inst.physical)).toBe(explainBoth(fresh.physical));
      expect(subqueryTexts(inst.physical)).toEqual(subqueryTexts(fresh.physical));
      const body = executePlan(inst.physical, sub, false, DEFAULT_BUDGET, 0).body.toString();
      expect(body).toBe(executePlan(fresh.physical, sub, false, DEFAULT_BUDGET, 0).body.toString());
      answers.add(body);
    }
    expect(answers.size).toBe(3);
    // Seen shapes are kept: these values again bind nothing.
    const b = snapshotCounters();
    const req = resolveRequest(prep, new Map([['mode', 'text'], ['after', '2025-01-15T09:00:00Z'], ['project', 'beta']]));
    planRequest(prep, req, catalog, FIXTURE_NOW);
    expect(moved(b)).toEqual(NONE);
  });
});
