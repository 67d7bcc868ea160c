// Bucket answers kept as bytes must be exactly what full execution gives at that instant: as the
// clock moves the window start past counted rows, after ingest, eviction, a clock set back, and for
// queries whose answer depends on the clock in ways the reuse rule cannot follow.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { randomEvents } from '../endpoints/random-events.ts';

const USAGE_SQL = readFileSync(fileURLToPath(new URL('../../data/endpoints/usage.api-counts.sql', import.meta.url)), 'utf8');
const T0 = Date.UTC(2025, 0, 15, 12, 0, 7, 250) * 1000;
const MINUTE = 60_000_000;
const PARAMS = [{ name: 'interval', required: true, allowed: ['minutely', 'hourly', 'daily'] }, { name: 'project', required: true }];

async function setup(maxRows = 1_000_000) {
  let now = T0;
  const store = new Store({ ...defaultStoreConfig({}), segmentRows: 200, maxRows });
  const svc = await createQueryService({ store, stateDir: null, nowMicros: () => now, cache: { sweepMs: 0 } });
  // Dense edge events over the last two hours: the minutely window start passes rows every few seconds.
  const dense = randomEvents(5, 3000, T0).filter((e) => e.source === 'edge.logs.prod').map((e, i) => ({
    ...e.event, timestamp: T0 - 2 * 60 * MINUTE + i * 3_000_001,
  }));
  svc.ingest('edge.logs.prod', dense);
  return { svc, store, setNow: (t: number) => { now = t; }, getNow: () => now };
}

type Svc = Awaited<ReturnType<typeof setup>>['svc'];

async function compare(svc: Svc, cachedName: string, fullName: string, interval: string, project = 'alpha') {
  const params = new Map([['interval', interval], ['project', project]]);
  const cached = await svc.run({ endpoint: cachedName, params, redactHeader: false });
  const full = await svc.run({ endpoint: fullName, params, redactHeader: false });
  expect(cached.body.toString()).toBe(full.body.toString());
  return cached;
}

describe('bucket answers reused as bytes', () => {
  it('equal full execution while the clock moves the window start past counted rows, and are reused in between', async () => {
    const { svc, setNow, getNow } = await setup();
    await svc.createEndpoint({ name: 'usage.uncached', query: USAGE_SQL, cache_duration_seconds: 0, params: PARAMS });
    let seed = 11;
    const step = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) % 2_500_000); // 0–2.5 s
    const bodies = new Set<string>();
    for (let i = 0; i < 400; i++) {
      setNow(getNow() + step());
      const r = await compare(svc, 'usage.api-counts', 'usage.uncached', i % 2 ? 'minutely' : 'hourly');
      bodies.add(r.body.toString());
    }
    // The answers did change over the run (rows left the window) and most were served as kept bytes.
    expect(bodies.size).toBeGreaterThan(10);
    expect(svc.cache.stats().bucket_memo_hits).toBeGreaterThan(100);
  });

  it('are recomputed after ingest, after eviction and when the clock is set back', async () => {
    const { svc, store, setNow } = await setup();
    await svc.createEndpoint({ name: 'usage.uncached', query: USAGE_SQL, cache_duration_seconds: 0, params: PARAMS });
    const first = await compare(svc, 'usage.api-counts', 'usage.uncached', 'hourly');
    const again = await compare(svc, 'usage.api-counts', 'usage.uncached', 'hourly');
    expect(again.body.toString()).toBe(first.body.toString());
    const hits = svc.cache.stats().bucket_memo_hits;
    expect(hits).toBeGreaterThan(0);

    svc.ingest('edge.logs.prod', [{ id: 'late-1', timestamp: T0 - 5 * MINUTE, project: 'alpha', metadata: { request: { url: 'https://alpha.api.example.com/auth/v1/x', path: '/auth/v1/x' } } }]);
    const afterIngest = await compare(svc, 'usage.api-counts', 'usage.uncached', 'hourly');
    expect(afterIngest.body.toString()).not.toBe(first.body.toString());

    // Retention moves the watermark into the hourly window: the evicted rows leave the answer.
    store.source('edge.logs.prod')!.evict(T0 - 30 * MINUTE + store.config.retentionUs);
    const afterEvict = await compare(svc, 'usage.api-counts', 'usage.uncached', 'hourly');
    expect(afterEvict.body.toString()).not.toBe(afterIngest.body.toString());

    setNow(T0 + 10 * MINUTE);
    await compare(svc, 'usage.api-counts', 'usage.uncached', 'minutely');
    setNow(T0 + 2 * MINUTE); // back in time: the window widens again
    await compare(svc, 'usage.api-counts', 'usage.uncached', 'minutely');
  });

  it('are not reused when the answer depends on the clock other than through a moving window start', async () => {
    const { svc, setNow, getNow } = await setup();
    // The window start is truncated to the minute (not now + offset) and the output shows the clock.
    const truncated = USAGE_SQL.replace('timestamp_sub(current_timestamp(), interval 60 minute)', 'timestamp_trunc(timestamp_sub(current_timestamp(), interval 60 minute), minute)');
    const showsClock = USAGE_SQL.replace("datetime(chart_counts.timestamp, 'UTC') as timestamp,", "datetime(chart_counts.timestamp, 'UTC') as timestamp, unix_seconds(current_timestamp()) as asked_at,")
      .replace('group by\n  timestamp\norder', 'group by\n  timestamp, asked_at\norder');
    expect(truncated).not.toBe(USAGE_SQL);
    expect(showsClock).not.toBe(USAGE_SQL);
    for (const [name, sql] of [['trunc', truncated], ['clock', showsClock]] as const) {
      await svc.createEndpoint({ name: `${name}.cached`, query: sql, cache_duration_seconds: 900, params: PARAMS });
      await svc.createEndpoint({ name: `${name}.full`, query: sql, cache_duration_seconds: 0, params: PARAMS });
    }
    for (let i = 0; i < 60; i++) {
      setNow(getNow() + 1_700_000);
      await compare(svc, 'trunc.cached', 'trunc.full', 'minutely');
      const r = await compare(svc, 'clock.cached', 'clock.full', 'minutely');
      if (i > 0) expect(r.cacheKind).toBe('bucket'); // still from the bucket state (after the first MISS), not from kept bytes
    }
    expect(svc.cache.stats().bucket_memo_hits).toBe(0);
  });

  it('are reused when the window start falls on a minute boundary, and stay exact as it moves', async () => {
    const { svc, setNow } = await setup();
    await svc.createEndpoint({ name: 'usage.uncached', query: USAGE_SQL, cache_duration_seconds: 0, params: PARAMS });
    // A clock on the minute makes every window start minute-aligned (no partial first minute).
    const aligned = Math.floor(T0 / MINUTE) * MINUTE;
    const bodies = new Set<string>();
    for (let k = 0; k < 6; k++) {
      setNow(aligned + k * MINUTE); // a minute later: about 20 rows left the window
      for (let i = 0; i < 5; i++) bodies.add((await compare(svc, 'usage.api-counts', 'usage.uncached', 'minutely')).body.toString());
    }
    expect(bodies.size).toBe(6);
    // Every request after the first at each instant is served from kept bytes.
    expect(svc.cache.stats().bucket_memo_hits).toBeGreaterThanOrEqual(24);
  });

  it('follow every source the query reads, not only the one its buckets count', async () => {
    const { svc } = await setup();
    // The counts come from edge events; a column of the answer comes from another source.
    const sql = USAGE_SQL.replace('from\n  chart_counts\ngroup by\n  timestamp',
      'from\n  chart_counts\n  cross join (select count(*) as pg from `postgres.logs`) as p\ngroup by\n  timestamp, p.pg')
      .replace("datetime(chart_counts.timestamp, 'UTC') as timestamp,", "datetime(chart_counts.timestamp, 'UTC') as timestamp, p.pg as pg,");
    expect(sql).toContain('postgres.logs');
    await svc.createEndpoint({ name: 'mixed.cached', query: sql, cache_duration_seconds: 900, params: PARAMS });
    await svc.createEndpoint({ name: 'mixed.full', query: sql, cache_duration_seconds: 0, params: PARAMS });
    const before = await compare(svc, 'mixed.cached', 'mixed.full', 'hourly');
    svc.ingest('postgres.logs', [{ event_message: 'checkpoint', project: 'alpha' }]);
    const after = await compare(svc, 'mixed.cached', 'mixed.full', 'hourly');
    expect(after.body.toString()).not.toBe(before.body.toString());
  });

  it('see a window start truncated to the hour jump at the hour, even when no counted row is near it', async () => {
    let now = 0;
    const store = new Store({ ...defaultStoreConfig({}), segmentRows: 200 });
    const svc = await createQueryService({ store, stateDir: null, nowMicros: () => now, cache: { sweepMs: 0 } });
    const hour = Date.UTC(2025, 0, 15, 11) * 1000;
    // Rows every 10 s from 11:20 to 12:00 only: nothing near the window start of 11:00.
    const events = Array.from({ length: 240 }, (_, i) => ({
      id: `h${i}`, timestamp: hour + 20 * MINUTE + i * 10_000_000, project: 'alpha',
      metadata: { request: { url: 'https://alpha.api.example.com/rest/v1/t', path: '/rest/v1/t' } },
    }));
    svc.ingest('edge.logs.prod', events);
    const sql = USAGE_SQL.replace('timestamp_sub(current_timestamp(), interval 60 minute)', 'timestamp_trunc(timestamp_sub(current_timestamp(), interval 60 minute), hour)');
    await svc.createEndpoint({ name: 'hour.cached', query: sql, cache_duration_seconds: 900, params: PARAMS });
    await svc.createEndpoint({ name: 'hour.full', query: sql, cache_duration_seconds: 0, params: PARAMS });
    now = hour + 119 * MINUTE; // 12:59: the window starts at 11:00 and holds every row
    const before = await compare(svc, 'hour.cached', 'hour.full', 'minutely');
    now = hour + 120 * MINUTE + 30_000_000; // 13:00:30: the window jumps to 12:00 and holds none
    const after = await compare(svc, 'hour.cached', 'hour.full', 'minutely');
    expect(JSON.parse(before.body.toString()).result.length).toBeGreaterThan(0);
    expect(JSON.parse(after.body.toString()).result).toEqual([]);
  });
});
