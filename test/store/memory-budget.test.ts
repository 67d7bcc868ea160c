// The process memory budget (RINGQL_MAX_MEMORY) and per-source limits (RINGQL_SOURCE_LIMITS): the
// variables parse strictly; under endless ingest the store stays within the budget by evicting the
// oldest data first, exactly (visible rows are those at or above each source's watermark), and a
// source with its own limit is not evicted by a noisy one.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { maxMemoryFromEnv, parseByteSize, sourceLimitsFromEnv } from '../../src/core/memory-env.ts';
import { clearBlockCache } from '../../src/store/block-cache.ts';
import type { SourceStore } from '../../src/store/source-store.ts';

const BASE = 1_736_000_000_000_000;
const SEC = 1_000_000;
const MiB = 2 ** 20;

function ids(s: SourceStore): Set<string> {
  const out = new Set<string>();
  for (const b of s.scan({ order: 'any' })) for (let i = 0; i < b.n; i++) out.add((JSON.parse(b.rows[i]!.json(b.idx[i]!)) as { id: string }).id);
  return out;
}

describe('memory variables', () => {
  it('parse sizes with binary units and default to half the machine', () => {
    expect(parseByteSize('512M')).toBe(512 * MiB);
    expect(parseByteSize('2G')).toBe(2 * 2 ** 30);
    expect(parseByteSize('1.5GiB')).toBe(1.5 * 2 ** 30);
    expect(parseByteSize('4096')).toBe(4096);
    expect(maxMemoryFromEnv({}, 8 * 2 ** 30)).toBe(4 * 2 ** 30);
    expect(maxMemoryFromEnv({ RINGQL_MAX_MEMORY: '512M' })).toBe(512 * MiB);
    for (const bad of ['lots', '-1G', '0', '12Q', '100K']) expect(() => maxMemoryFromEnv({ RINGQL_MAX_MEMORY: bad })).toThrow(/RINGQL_MAX_MEMORY/);
  });

  it('parse per-source limits and name the variable on a bad one', () => {
    const m = sourceLimitsFromEnv({ RINGQL_SOURCE_LIMITS: 'realtime.logs.prod=24h/256M, auth.logs.prod=512M,postgres.logs=90m' });
    expect(m.get('realtime.logs.prod')).toEqual({ retentionUs: 24 * 3600 * SEC, maxBytes: 256 * MiB });
    expect(m.get('auth.logs.prod')).toEqual({ maxBytes: 512 * MiB });
    expect(m.get('postgres.logs')).toEqual({ retentionUs: 90 * 60 * SEC });
    for (const bad of ['x', '=1G', 'a=1G,a=2G', 'a=soon', 'a=1h/2h']) expect(() => sourceLimitsFromEnv({ RINGQL_SOURCE_LIMITS: bad })).toThrow(/RINGQL_SOURCE_LIMITS/);
    expect(() => new Store(defaultStoreConfig({ RINGQL_SOURCE_LIMITS: 'nope.logs=1G' }))).toThrow(/RINGQL_SOURCE_LIMITS.*nope\.logs/);
  });

  it('apply a per-source retention', () => {
    const store = new Store(defaultStoreConfig({ RINGQL_SOURCE_LIMITS: 'auth.logs.prod=1h' }));
    const now = BASE + 10 * 3600 * SEC;
    const ev = (id: string, t: number): Record<string, unknown> => ({ id, timestamp: t, project: 'p' });
    expect(store.source('auth.logs.prod')!.ingest([ev('old', now - 2 * 3600 * SEC), ev('new', now)], now)).toEqual({ stored: 1, dropped: 1 });
    expect(store.source('rest.logs.prod')!.ingest([ev('old', now - 2 * 3600 * SEC)], now)).toEqual({ stored: 1, dropped: 0 });
  });
});

describe('memory budget', () => {
  it('holds under endless ingest, evicting oldest first and exactly', () => {
    clearBlockCache();
    fc.assert(fc.property(
      fc.array(fc.record({ src: fc.constantFrom('edge.logs.prod', 'auth.logs.prod', 'rest.logs.prod'), n: fc.integer({ min: 1, max: 400 }), pad: fc.integer({ min: 0, max: 900 }) }), { minLength: 5, maxLength: 30 }),
      fc.integer({ min: 16, max: 512 }),
      (batches, segmentRows) => {
        const max = 4 * MiB;
        clearBlockCache();
        const store = new Store({ ...defaultStoreConfig({}), segmentRows, maxMemory: max, compress: true });
        const tsOf = new Map<string, number>();
        let t = 0, k = 0;
        for (const b of batches) {
          // Random-ish payloads compress poorly, so the budget is really reached.
          const events = Array.from({ length: b.n }, () => {
            const id = `e${k++}`, ts = BASE + (t += 1000 + (k % 7) * 300);
            tsOf.set(id, ts);
            return { id, timestamp: ts, project: `p${k % 3}`, event_message: Array.from({ length: 1 + (b.pad >> 5) }, () => Math.random().toString(36)).join('') };
          });
          store.source(b.src)!.ingest(events, BASE + 1e10);
          const m = store.memoryStats();
          expect(m.used_bytes).toBeLessThanOrEqual(max);
        }
        if (k * 600 > 3 * max) expect(store.memoryStats().evicted_for_budget).toBeGreaterThan(0);
        for (const s of store.sources()) {
          // Exact: the visible rows are all rows of this source at or above its watermark.
          const w = s.watermark();
          const seen = ids(s);
          for (const id of seen) expect(tsOf.get(id)!).toBeGreaterThanOrEqual(w);
          expect(seen.size).toBe(s.rowCount);
        }
      },
    ), { numRuns: 8, seed: 3 });
  });

  it('evicts a noisy source, not one with its own limit', () => {
    clearBlockCache();
    const store = new Store({ ...defaultStoreConfig({ RINGQL_SOURCE_LIMITS: 'auth.logs.prod=1G' }), segmentRows: 256, maxMemory: 3 * MiB });
    const auth = store.source('auth.logs.prod')!, edge = store.source('edge.logs.prod')!;
    auth.ingest(Array.from({ length: 500 }, (_, i) => ({ id: `a${i}`, timestamp: BASE + i, project: 'p', event_message: `auth ${i}` })), BASE + 1e10);
    let k = 0;
    for (let round = 0; round < 150; round++) {
      edge.ingest(Array.from({ length: 300 }, () => ({ id: `n${k}`, timestamp: BASE + 1000 + k++, project: 'p', event_message: `${Math.random().toString(36)}${Math.random().toString(36)}${Math.random().toString(36)}` })), BASE + 1e10);
    }
    expect(store.memoryStats().used_bytes).toBeLessThanOrEqual(3 * MiB);
    expect(auth.rowCount).toBe(500);
    expect(ids(auth).size).toBe(500);
    expect(edge.rowCount).toBeLessThan(k);
    expect(edge.evicted).toBeGreaterThan(0);
    expect(store.memoryStats().evicted_for_budget).toBe(edge.evicted);
  });
});
