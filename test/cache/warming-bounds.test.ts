// Cache warming is bounded (issue: 12 requests once caused 60 recomputes): per endpoint only the most
// recently used keys are warmed, a sweep stops after its share of wall time, and /health counts warm runs.

import { describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';

const T0 = Date.UTC(2025, 0, 15, 12) * 1000;

async function serviceWith(cache: { warmKeysPerEndpoint?: number; warmShare?: number; sweepMs?: number }) {
  let now = T0;
  const svc = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, nowMicros: () => now, cache: { sweepMs: 0, ...cache } });
  svc.ingest('edge.logs.prod', [{ id: 'a', timestamp: T0 - 1000, project: 'p', event_message: 'x' }]);
  await svc.createEndpoint({
    name: 'warmable', query: 'with t as (select id, event_message from `edge.logs.prod`) select count(*) as n from t',
    cache_duration_seconds: 60, proactive_requerying_seconds: 10, sandboxable: true,
  });
  const run = (sql: string) => svc.run({ endpoint: 'warmable', params: new Map([['sql', sql]]), redactHeader: false });
  return { svc, run, advance: (us: number) => { now += us; } };
}

describe('warming bounds', () => {
  it('warms at most RINGQL_WARM_KEYS_PER_ENDPOINT keys per sweep, the most recently used, and counts the rest as skipped', async () => {
    const { svc, run, advance } = await serviceWith({ warmKeysPerEndpoint: 2 });
    for (let i = 0; i < 5; i++) { await run(`select count(*) + ${i} as n from t`); advance(1000); }
    const before = svc.cache.stats();
    advance(11_000_000);
    await svc.cache.warmNow();
    const after = svc.cache.stats();
    expect(after.warm_runs - before.warm_runs).toBe(2);
    expect(after.warm_skipped - before.warm_skipped).toBe(3);
    expect(after.computations - before.computations).toBe(2);
    // The two most recently used keys (3 and 4) were recomputed: their age is 0; the others' is not.
    const ages = [];
    for (let i = 0; i < 5; i++) ages.push((await run(`select count(*) + ${i} as n from t`)).ageSeconds);
    expect(ages.slice(3)).toEqual([0, 0]);
    expect(ages.slice(0, 3).every((a) => a >= 11)).toBe(true);
    expect((svc.health() as { cache: { warm_runs: number } }).cache.warm_runs).toBe(after.warm_runs);
    svc.close();
  });

  it('a sweep stops after its share of wall time; what is left waits for the next sweep', async () => {
    const { svc, run, advance } = await serviceWith({ warmKeysPerEndpoint: 100, warmShare: 1e-9, sweepMs: 60_000 });
    for (let i = 0; i < 5; i++) await run(`select count(*) + ${i} as n from t`);
    advance(11_000_000);
    const before = svc.cache.stats();
    await svc.cache.warmNow();
    const after = svc.cache.stats();
    expect(after.warm_runs - before.warm_runs).toBeLessThanOrEqual(1);
    expect(after.warm_skipped - before.warm_skipped).toBeGreaterThanOrEqual(4);
    svc.close();
  });
});
