// The precomputed bucket cache must give exactly what full execution gives at that instant:
// random out-of-order ingest (late events included), a moving clock, and eviction.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { randomEvents } from '../endpoints/random-events.ts';

const USAGE_SQL = readFileSync(fileURLToPath(new URL('../../data/endpoints/usage.api-counts.sql', import.meta.url)), 'utf8');
const T0 = Date.UTC(2025, 0, 15, 12, 0, 7, 250) * 1000;

function rng(seed: number) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
}

async function setup(maxRows: number) {
  let now = T0;
  const store = new Store({ ...defaultStoreConfig({}), segmentRows: 200, maxRows });
  const svc = await createQueryService({ store, stateDir: null, nowMicros: () => now, cache: { sweepMs: 0 } });
  // the same SQL with no cache: full execution on every request
  await svc.createEndpoint({ name: 'usage.uncached', query: USAGE_SQL, cache_duration_seconds: 0, params: [{ name: 'interval', required: true, allowed: ['minutely', 'hourly', 'daily'] }, { name: 'project', required: true }] });
  return { svc, setNow: (t: number) => { now = t; }, getNow: () => now };
}

async function both(svc: Awaited<ReturnType<typeof setup>>['svc'], interval: string, project: string) {
  const p = new Map([['interval', interval], ['project', project]]);
  const cached = await svc.run({ endpoint: 'usage.api-counts', params: p, redactHeader: false });
  const full = await svc.run({ endpoint: 'usage.uncached', params: p, redactHeader: false });
  return { cached, full };
}

describe('bucket cache', () => {
  for (const seed of [1, 2, 3]) {
    it(`equals full execution under out-of-order ingest and a moving clock (seed ${seed})`, async () => {
      const { svc, setNow, getNow } = await setup(1_000_000);
      const r = rng(seed);
      const events = randomEvents(seed, 4000, T0 + 3 * 3_600_000_000);
      let i = 0;
      let warmHits = 0;
      for (let step = 0; step < 12; step++) {
        // a batch of events in random order, some of them hours late relative to the clock
        const n = 100 + Math.floor(r() * 400);
        const batch = events.slice(i, i + n).filter((e) => e.source === 'edge.logs.prod');
        i += n;
        if (batch.length) svc.ingest('edge.logs.prod', batch.map((e) => ({ ...e.event })));
        setNow(getNow() + Math.floor(r() * 20 * 60_000_000));
        for (const interval of ['minutely', 'hourly', 'daily']) {
          for (const project of ['alpha', 'beta|gamma']) {
            const { cached, full } = await both(svc, interval, project);
            expect(cached.body.toString()).toBe(full.body.toString());
            if (cached.cacheKind === 'bucket') warmHits++;
          }
        }
      }
      expect(warmHits).toBeGreaterThan(30);
    });
  }

  it('follows evictions by capacity', async () => {
    const { svc, setNow } = await setup(1500);
    const events = randomEvents(9, 6000, T0).filter((e) => e.source === 'edge.logs.prod');
    setNow(T0);
    for (let k = 0; k < events.length; k += 300) {
      svc.ingest('edge.logs.prod', events.slice(k, k + 300).map((e) => ({ ...e.event })));
      const { cached, full } = await both(svc, 'daily', 'alpha');
      expect(cached.body.toString()).toBe(full.body.toString());
    }
    expect(svc.sources().find((s) => s.name === 'edge.logs.prod')!.evicted).toBeGreaterThan(0);
  });

  it('says HIT with X-Cache-Kind bucket once the state exists, and shows a new event in the next answer', async () => {
    const { svc } = await setup(1_000_000);
    const p = new Map([['interval', 'hourly'], ['project', 'alpha']]);
    const first = await svc.run({ endpoint: 'usage.api-counts', params: p, redactHeader: false });
    expect(first.cache).toBe('MISS');
    svc.ingest('edge.logs.prod', [{ id: 'x1', timestamp: T0 - 60_000_000, project: 'alpha', metadata: { request: { url: 'https://alpha.example.com/rest/v1/t', path: '/rest/v1/t' } } }]);
    const second = await svc.run({ endpoint: 'usage.api-counts', params: p, redactHeader: false });
    expect(second.cache).toBe('HIT');
    expect(second.cacheKind).toBe('bucket');
    const rows = JSON.parse(second.body.toString()).result as { total_rest_requests: number }[];
    expect(rows.reduce((s, x) => s + x.total_rest_requests, 0)).toBe(1);
  });
});
