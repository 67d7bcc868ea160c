// True prepare-once over a real server: after load, requests with ever new parameter values to both
// built-in endpoints (every interval of usage.api-counts; logs.all with and without time bounds, and a
// sandbox text once seen) parse, bind, plan and physically plan nothing (the engine's per-stage counters),
// and answer as a query planned from scratch does.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueryService, type EngineService } from '../../src/endpoints/service.ts';
import { snapshotCounters, type EngineCounters } from '../../src/core/engine-counters.ts';
import { loadBuiltins } from '../../src/endpoints/endpoint-files.ts';
import { prepareEndpoint } from '../../src/endpoints/prepare.ts';
import { executePlan, resolveRequest } from '../../src/endpoints/execute.ts';
import { planOnce } from '../../src/engine/engine.ts';
import { DEFAULT_BUDGET } from '../../src/exec/context.ts';
import { bearer, startTestServer, TOKENS, type TestServer } from '../http/helpers.ts';
import { fixtureStore, FIXTURE_NOW } from '../helpers/fixture-store.ts';

type Stages = Pick<EngineCounters, 'parses' | 'binds' | 'plans' | 'physicalPlans'>;

function moved(before: EngineCounters): Stages {
  const now = snapshotCounters();
  return { parses: now.parses - before.parses, binds: now.binds - before.binds, plans: now.plans - before.plans, physicalPlans: now.physicalPlans - before.physicalPlans };
}

const NONE: Stages = { parses: 0, binds: 0, plans: 0, physicalPlans: 0 };
const N = 12;
const SANDBOX = "select id, timestamp from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r where r.path like '/rest%' order by timestamp desc limit 3";

let now = FIXTURE_NOW;
let svc: EngineService;
let server: TestServer;

beforeAll(async () => {
  svc = await createQueryService({ store: fixtureStore(), stateDir: null, nowMicros: () => now, cache: { sweepMs: 0 } });
  server = await startTestServer(svc);
});

afterAll(async () => {
  await server.close();
  svc.close();
});

/** GETs a built-in endpoint; the body (the request must succeed). */
async function get(endpoint: string, params: Record<string, string>): Promise<string> {
  now += 7_000_001; // the clock moves between requests too
  const res = await fetch(`${server.url}/api/endpoints/query/${endpoint}?${new URLSearchParams(params)}`, { headers: bearer(TOKENS.priv) });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return text;
}

/** The answer's row count. */
async function rows(endpoint: string, params: Record<string, string>): Promise<number> {
  return (JSON.parse(await get(endpoint, params)) as { result: unknown[] }).result.length;
}

/** A time N minutes before the fixtures' clock, as the endpoint's ISO parameter. */
const iso = (minutes: number): string => new Date(FIXTURE_NOW / 1000 - minutes * 60_000).toISOString();

describe('a request with values never seen does no parsing, binding, planning or physical planning', () => {
  it('usage.api-counts, every interval, new project patterns; the same answers as a fresh plan', async () => {
    const before = snapshotCounters();
    const asked: { params: Record<string, string>; at: number; body: string }[] = [];
    for (const interval of ['minutely', 'hourly', 'daily']) {
      for (let i = 0; i < N; i++) {
        // Patterns matching other projects each time: a memo keyed by the template's pattern would count wrong.
        const params = { interval, project: `(${['alpha', 'beta', 'default', 'nobody'][i % 4]}|p${interval}${i})` };
        const body = await get('usage.api-counts', params);
        asked.push({ params, at: now, body });
      }
    }
    expect(moved(before)).toEqual(NONE);
    // Each answer equals an ad hoc run of the query, planned from scratch with those values at that instant.
    const prep = prepareEndpoint(loadBuiltins().find((b) => b.def.name === 'usage.api-counts')!.def, svc.catalog, FIXTURE_NOW);
    const answers = new Set<string>();
    for (const a of asked) {
      const req = resolveRequest(prep, new Map(Object.entries(a.params)));
      const fresh = planOnce(prep.query, svc.catalog, req.values, a.at, { limitHint: 1001 });
      expect(a.body, JSON.stringify(a.params)).toBe(executePlan(fresh.physical, prep, false, DEFAULT_BUDGET, 0).body.toString());
      answers.add(a.body);
    }
    expect(answers.size).toBeGreaterThan(3);
  });

  it('logs.all without and with time bounds, new projects and new bounds', async () => {
    const before = snapshotCounters();
    // The fixtures hold 14 edge rows of project alpha, none of a made-up project.
    expect(await rows('logs.all', { project: 'alpha' })).toBe(14);
    for (let i = 0; i < N; i++) {
      expect(await rows('logs.all', { project: `nobody-${i}` })).toBe(0);
      await rows('logs.all', { project: i % 2 ? 'alpha' : 'beta', iso_timestamp_start: iso(240 + i) });
      await rows('logs.all', { project: 'alpha', iso_timestamp_end: iso(30 + i) });
      await rows('logs.all', { project: `p${i}`, iso_timestamp_start: iso(600 + i), iso_timestamp_end: iso(i) });
    }
    expect(moved(before)).toEqual(NONE);
  });

  it('a sandbox text binds once; then new values for it do no planning of any stage', async () => {
    const first = snapshotCounters();
    await rows('logs.all', { project: 'alpha', sql: SANDBOX });
    expect(moved(first).parses).toBe(1);
    const before = snapshotCounters();
    for (let i = 0; i < N; i++) await rows('logs.all', { project: i % 3 ? `q${i}` : 'beta', sql: SANDBOX });
    expect(moved(before)).toEqual(NONE);
  });
});
