// Prepare once: a saved query is parsed, bound, planned and physically planned when it is created; a
// request reuses that work (moved to its own clock when the plan is affine in it) and does no parsing,
// binding or planning, shown by the engine's counters. Moving a plan in time must equal planning anew.

import { describe, expect, it } from 'vitest';
import { createQueryService } from '../../src/endpoints/service.ts';
import { prepareEndpoint } from '../../src/endpoints/prepare.ts';
import { planRequest, resolveRequest } from '../../src/endpoints/execute.ts';
import { loadBuiltins } from '../../src/endpoints/endpoint-files.ts';
import { catalogFromStore } from '../../src/endpoints/store-catalog.ts';
import { engineCounters, snapshotCounters, type EngineCounters } from '../../src/core/engine-counters.ts';
import { explainBoth } from '../../src/exec/physical/explain-physical.ts';
import { fixtureStore, FIXTURE_NOW } from '../helpers/fixture-store.ts';

const MIN = 60_000_000;

function delta(before: EngineCounters): EngineCounters {
  const now = snapshotCounters();
  return { parses: now.parses - before.parses, binds: now.binds - before.binds, plans: now.plans - before.plans, physicalPlans: now.physicalPlans - before.physicalPlans, reuses: now.reuses - before.reuses };
}

const NOTHING_BUT_REUSE = { parses: 0, binds: 0, plans: 0, physicalPlans: 0, reuses: 1 };

describe('prepare once', () => {
  it('creating a saved query does the planning; its requests do none, even as the clock moves', async () => {
    let now = FIXTURE_NOW;
    const svc = await createQueryService({ store: fixtureStore(), stateDir: null, nowMicros: () => now, cache: { sweepMs: 0 } });
    const before = snapshotCounters();
    await svc.createEndpoint({
      name: 'recent.edge', cache_duration_seconds: 0,
      query: "select t.id, t.timestamp from `edge.logs.prod` t where t.project = @project and t.timestamp > timestamp_sub(current_timestamp(), interval 3 hour) order by t.timestamp desc",
    });
    const made = delta(before);
    expect(made.parses).toBe(1);
    expect(made.binds).toBeGreaterThanOrEqual(1);
    // Two plan shapes: @project absent (a NULL comparison stays a filter) and present (the scan's project).
    expect(made.plans).toBe(2);
    expect(made.physicalPlans).toBe(2);
    const run = async () => (await svc.run({ endpoint: 'recent.edge', params: new Map([['project', 'alpha']]), redactHeader: false })).body.toString();
    const f = snapshotCounters();
    const first = await run(); // a new parameter value: put into the prepared plan, physically planned only
    expect(delta(f)).toEqual(NOTHING_BUT_REUSE);
    const bodies: string[] = [];
    for (const step of [0, 30, 45]) {
      now = FIXTURE_NOW + step * MIN;
      const b = snapshotCounters();
      bodies.push(await run());
      expect(delta(b)).toEqual(NOTHING_BUT_REUSE);
    }
    expect(bodies[0]).toBe(first);
    // Each answer is the query's at its own instant: a fresh service planning from scratch agrees.
    const fresh = await createQueryService({ store: fixtureStore(), stateDir: null, nowMicros: () => now, cache: { sweepMs: 0 } });
    await fresh.createEndpoint({ name: 'recent.edge', cache_duration_seconds: 0, query: (await svc.getEndpoint('recent.edge')).query });
    expect((await fresh.run({ endpoint: 'recent.edge', params: new Map([['project', 'alpha']]), redactHeader: false })).body.toString()).toBe(bodies[2]);
    svc.close();
    fresh.close();
  });

  it('a sandbox text is parsed once and its plan kept; a new text is parsed', async () => {
    const svc = await createQueryService({ store: fixtureStore(), stateDir: null, nowMicros: () => FIXTURE_NOW, cache: { sweepMs: 0 } });
    const run = (sql: string) => svc.run({ endpoint: 'logs.all', params: new Map([['project', 'alpha'], ['sql', sql]]), redactHeader: false });
    const a = await run('select count(*) as n from edge_logs');
    const b = snapshotCounters();
    expect((await run('select count(*) as n from edge_logs')).body.toString()).toBe(a.body.toString());
    expect(delta(b)).toEqual(NOTHING_BUT_REUSE);
    const c = snapshotCounters();
    await run('select count(*) as m from edge_logs');
    expect(delta(c)).toMatchObject({ parses: 1, binds: 1, reuses: 0 });
    svc.close();
  });
});

describe('moving a prepared plan in time equals planning at that time', () => {
  const store = fixtureStore();
  const catalog = catalogFromStore(store);
  const usage = loadBuiltins().find((b) => b.def.name === 'usage.api-counts')!.def;

  for (const interval of ['minutely', 'hourly', 'daily']) {
    it(`usage.api-counts ${interval}`, () => {
      const prep = prepareEndpoint(usage, catalog, FIXTURE_NOW);
      const req = resolveRequest(prep, new Map([['interval', interval], ['project', 'alpha']]));
      planRequest(prep, req, catalog, FIXTURE_NOW);
      const later = FIXTURE_NOW + 97 * MIN + 1234;
      const b = snapshotCounters();
      const moved = planRequest(prep, req, catalog, later);
      expect(delta(b)).toEqual(NOTHING_BUT_REUSE);
      const fresh = planRequest(prepareEndpoint(usage, catalog, later), req, catalog, later);
      expect(explainBoth(moved.physical)).toBe(explainBoth(fresh.physical));
    });
  }

  it('a clock-dependent value that is not now + a fixed offset is planned per request', () => {
    const def = { ...usage, params: [], query: 'select count(*) as n from `edge.logs.prod` t where t.timestamp >= timestamp_trunc(current_timestamp(), hour)' };
    const prep = prepareEndpoint(def, catalog, FIXTURE_NOW);
    const b = engineCounters.binds;
    const p = planRequest(prep, resolveRequest(prep, new Map()), catalog, FIXTURE_NOW + 61 * MIN);
    expect(engineCounters.binds - b).toBe(1);
    expect(explainBoth(p.physical)).toMatch(/time=\[2025-01-15T13:00:00Z, \+inf\)/);
  });

  it('a fixed and a moving bound on one side are planned per request (which wins depends on the clock)', () => {
    const def = { ...usage, params: [], query: "select count(*) as n from `edge.logs.prod` t where t.timestamp > timestamp_sub(current_timestamp(), interval 1 hour) and t.timestamp > '2025-01-15T11:30:00Z'" };
    const prep = prepareEndpoint(def, catalog, FIXTURE_NOW);
    expect(explainBoth(planRequest(prep, resolveRequest(prep, new Map()), catalog, FIXTURE_NOW).physical)).toMatch(/time=\(2025-01-15T11:30:00Z, \+inf\)/);
    // An hour later the moving bound (12:00) is the tighter one; shifting the 11:30 bound would say 12:30.
    expect(explainBoth(planRequest(prep, resolveRequest(prep, new Map()), catalog, FIXTURE_NOW + 60 * MIN).physical)).toMatch(/time=\(2025-01-15T12:00:00Z, \+inf\)/);
  });
});

describe('a kept plan follows the schema', () => {
  it('a new top-level key seen after the plan was kept appears in SELECT * (the plan is bound again)', async () => {
    const svc = await createQueryService({ store: fixtureStore(), stateDir: null, nowMicros: () => FIXTURE_NOW, cache: { sweepMs: 0 } });
    await svc.createEndpoint({ name: 'newest.row', cache_duration_seconds: 0, query: 'select * except (metadata, event_message) from `edge.logs.prod` t order by t.timestamp desc limit 1' });
    const run = async () => JSON.parse((await svc.run({ endpoint: 'newest.row', params: new Map(), redactHeader: false })).body.toString()) as { result: Record<string, unknown>[] };
    expect(Object.keys((await run()).result[0]!)).not.toContain('zz_new');
    await svc.ingest('edge.logs.prod', [{ id: 'n1', timestamp: '2025-01-15T13:00:00Z', event_message: 'x', project: 'alpha', zz_new: 'v' }]);
    const b = snapshotCounters();
    const row = (await run()).result[0]!;
    expect(row.zz_new).toBe('v');
    expect(delta(b).binds).toBe(1);
    svc.close();
  });
});
