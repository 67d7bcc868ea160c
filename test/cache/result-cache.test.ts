// Result cache contract (SPEC §8): key composition, TTL from computation, coalescing, errors never
// cached, invalidation on update/delete, the redaction flag, and warming on a controllable clock.

import { beforeEach, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { RingqlError } from '../../src/core/errors.ts';

const T0 = Date.UTC(2025, 0, 15, 12) * 1000;
let now = T0;
let svc: Awaited<ReturnType<typeof createQueryService>>;

const COUNT_SQL = "select count(*) as n, max(t.event_message) as last from `edge.logs.prod` t where t.project = @project";

beforeEach(async () => {
  now = T0;
  const store = new Store(defaultStoreConfig({}));
  svc = await createQueryService({ store, stateDir: null, nowMicros: () => now, cache: { sweepMs: 0 } });
  svc.ingest('edge.logs.prod', [
    { id: 'a', timestamp: T0 - 1000, project: 'p', event_message: 'from 10.0.0.1' },
    { id: 'b', timestamp: T0 - 2000, project: 'q', event_message: 'hello' },
  ]);
  await svc.createEndpoint({ name: 'counts', query: COUNT_SQL, cache_duration_seconds: 60, proactive_requerying_seconds: 10 });
});

const run = (params: Record<string, string>, redact = false) =>
  svc.run({ endpoint: 'counts', params: new Map(Object.entries(params)), redactHeader: redact });

describe('result cache', () => {
  it('keys on declared parameters only: api_key and unknown extras share an entry', async () => {
    const a = await run({ project: 'p', api_key: 'one' });
    const b = await run({ project: 'p', api_key: 'two', utm: 'x' });
    const c = await run({ project: 'q' });
    expect([a.cache, b.cache, c.cache]).toEqual(['MISS', 'HIT', 'MISS']);
    expect(b.cacheKind).toBe('result');
    expect(b.body).toBe(a.body);
    expect(c.body.toString()).not.toBe(a.body.toString());
  });

  it('keys on sql as well', async () => {
    await svc.updateEndpoint('counts', { sandboxable: true });
    const a = await run({ project: 'p', sql: 'select 1 as x' });
    const b = await run({ project: 'p', sql: 'select 2 as x' });
    const c = await run({ project: 'p', sql: 'select 1 as x' });
    expect([a.cache, b.cache, c.cache]).toEqual(['MISS', 'MISS', 'HIT']);
  });

  it('serves an entry for cache_duration_seconds from its computation, with Age', async () => {
    await run({ project: 'p' });
    svc.ingest('edge.logs.prod', [{ id: 'c', timestamp: T0 - 500, project: 'p', event_message: 'new' }]);
    now = T0 + 59_000_000;
    const hit = await run({ project: 'p' });
    expect(hit.cache).toBe('HIT');
    expect(hit.ageSeconds).toBe(59);
    expect(JSON.parse(hit.body.toString()).result[0].n).toBe(1);
    now = T0 + 60_000_000;
    const miss = await run({ project: 'p' });
    expect(miss.cache).toBe('MISS');
    expect(JSON.parse(miss.body.toString()).result[0].n).toBe(2);
  });

  it('coalesces concurrent misses into one computation', async () => {
    const before = svc.cache.stats().computations;
    const all = await Promise.all(Array.from({ length: 20 }, () => run({ project: 'p' })));
    expect(svc.cache.stats().computations - before).toBe(1);
    expect(new Set(all.map((r) => r.body)).size).toBe(1);
    expect(all.filter((r) => r.cache === 'MISS')).toHaveLength(1);
  });

  it('never caches errors', async () => {
    await svc.createEndpoint({ name: 'fails', query: 'select cast(@v as int64) as x', cache_duration_seconds: 60 });
    const before = svc.cache.stats().computations;
    for (let i = 0; i < 3; i++) {
      await expect(svc.run({ endpoint: 'fails', params: new Map([['v', 'abc']]), redactHeader: false })).rejects.toBeInstanceOf(RingqlError);
    }
    expect(svc.cache.stats().computations - before).toBe(3);
    expect(svc.cache.stats().entries).toBe(0);
  });

  it('drops an endpoint\'s entries when it is updated or deleted', async () => {
    await run({ project: 'p' });
    expect((await run({ project: 'p' })).cache).toBe('HIT');
    await svc.updateEndpoint('counts', { description: 'changed' });
    expect((await run({ project: 'p' })).cache).toBe('MISS');
    await svc.deleteEndpoint('counts');
    await svc.createEndpoint({ name: 'counts', query: COUNT_SQL, cache_duration_seconds: 60 });
    expect((await run({ project: 'p' })).cache).toBe('MISS');
  });

  it('keeps redacted and unredacted answers apart', async () => {
    const plain = await run({ project: 'p' });
    expect(plain.body.toString()).toContain('10.0.0.1');
    const red = await run({ project: 'p' }, true);
    expect(red.cache).toBe('MISS');
    expect(red.body.toString()).not.toContain('10.0.0.1');
    expect(red.body.toString()).toContain('REDACTED');
    expect((await run({ project: 'p' }, true)).body).toBe(red.body);
    expect((await run({ project: 'p' })).body).toBe(plain.body);
  });

  it('warms entries in use on the requerying interval, and stops for entries nobody asks for', async () => {
    await run({ project: 'p' });
    const c0 = svc.cache.stats().computations;
    now = T0 + 5_000_000;
    await svc.cache.warmNow();
    expect(svc.cache.stats().computations).toBe(c0); // not due yet
    svc.ingest('edge.logs.prod', [{ id: 'c', timestamp: T0 - 500, project: 'p', event_message: 'new' }]);
    now = T0 + 11_000_000;
    await svc.cache.warmNow();
    expect(svc.cache.stats().computations).toBe(c0 + 1);
    const r = await run({ project: 'p' });
    expect(r.cache).toBe('HIT');
    expect(r.ageSeconds).toBe(0);
    expect(JSON.parse(r.body.toString()).result[0].n).toBe(2);
    // nobody asks for a whole cache duration: warming stops and the entry goes
    now = T0 + 11_000_000 + 61_000_000;
    await svc.cache.warmNow();
    const c1 = svc.cache.stats().computations;
    now += 20_000_000;
    await svc.cache.warmNow();
    expect(svc.cache.stats().computations).toBe(c1);
    expect(svc.cache.stats().entries).toBe(0);
  });

  it('does not warm when proactive_requerying_seconds is 0', async () => {
    await svc.updateEndpoint('counts', { proactive_requerying_seconds: 0 });
    await run({ project: 'p' });
    const c0 = svc.cache.stats().computations;
    now = T0 + 30_000_000;
    await svc.cache.warmNow();
    expect(svc.cache.stats().computations).toBe(c0);
  });

  it('bounds memory: entries beyond the byte budget are evicted least recently used first', async () => {
    const store = new Store(defaultStoreConfig({}));
    const small = await createQueryService({ store, stateDir: null, nowMicros: () => now, cache: { sweepMs: 0, maxBytes: 200, maxEntries: 100 } });
    await small.createEndpoint({ name: 'echo', query: 'select @v as v', cache_duration_seconds: 60 });
    for (let i = 0; i < 50; i++) await small.run({ endpoint: 'echo', params: new Map([['v', 'x'.repeat(20) + i]]), redactHeader: false });
    expect(small.cache.stats().bytes).toBeLessThanOrEqual(200);
    expect(small.cache.stats().entries).toBeGreaterThan(0);
    expect(small.cache.stats().entries).toBeLessThan(50);
  });
});
