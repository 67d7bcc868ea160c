// Property tests of eviction: with small capacities and retention, visible rows are exactly the
// stored rows at or above the watermark, the counts add up, and memory stays bounded.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SourceStore } from '../../src/store/source-store.ts';
import { Store, defaultStoreConfig, defaultBytesPerSource } from '../../src/store/store.ts';
import { totalmem } from 'node:os';
import { sourceByNameOrId } from '../../src/store/sources.ts';
import type { StoreConfig } from '../../src/store/types.ts';

const BASE = 1_736_000_000_000_000;
const SEC = 1_000_000;
const edge = sourceByNameOrId('edge.logs.prod')!;

function ids(store: SourceStore): string[] {
  const out: string[] = [];
  for (const b of store.scan({ order: 'any' })) for (let i = 0; i < b.n; i++) out.push((JSON.parse(b.rows[i]!.json(b.idx[i]!)) as { id: string }).id);
  return out.sort();
}

const stepArb = fc.record({
  advance: fc.integer({ min: 0, max: 8 }),
  evict: fc.boolean(),
  events: fc.array(fc.record({ age: fc.integer({ min: -2, max: 40 }), project: fc.constantFrom('a', 'b'), pad: fc.nat({ max: 120 }) }), { maxLength: 30 }),
});

describe('eviction', () => {
  it('keeps visible = stored rows >= watermark, counts consistent, memory bounded', () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 3, max: 60 }),
        fc.constantFrom(1e12, 4000, 12000),
        fc.integer({ min: 5, max: 30 }),
        (steps, segmentRows, maxRows, maxBytes, retentionSec) => {
          const cfg: StoreConfig = { retentionUs: retentionSec * SEC, maxRows, maxBytes, segmentRows, maxEventDepth: 8, maxStringBytes: 10_000 };
          const store = new SourceStore(edge, cfg);
          const stored = new Map<string, number>(); // id -> ts of every row ever stored
          let now = BASE, n = 0, totalDropped = 0;
          for (const step of steps) {
            now += step.advance * SEC;
            if (step.evict) store.evict(now);
            const w1 = Math.max(store.watermark(), now - cfg.retentionUs);
            const batch = step.events.map((e) => ({ id: `e${n++}`, timestamp: now - e.age * SEC + (n % 7), project: e.project, event_message: 'x'.repeat(e.pad) }));
            const r = store.ingest(batch, now);
            const expectDropped = batch.filter((e) => e.timestamp < w1).length;
            expect(r).toEqual({ stored: batch.length - expectDropped, dropped: expectDropped });
            totalDropped += expectDropped;
            for (const e of batch) if (e.timestamp >= w1) stored.set(e.id, e.timestamp);
            const w2 = store.watermark();
            expect(w2).toBeGreaterThanOrEqual(w1);
            const visible = [...stored].filter(([, ts]) => ts >= w2).map(([id]) => id).sort();
            expect(ids(store)).toEqual(visible);
            expect(store.rowCount).toBe(visible.length);
            expect(store.evicted).toBe(stored.size - visible.length);
            expect(store.dropped).toBe(totalDropped);
            const st = store.stats();
            expect(store.rowCount).toBeLessThanOrEqual(maxRows);
            expect(st.physicalRows).toBeLessThanOrEqual(maxRows);
            expect(st.bytes).toBeLessThanOrEqual(maxBytes);
            expect(st.segments).toBeLessThanOrEqual(Math.max(1, st.physicalRows));
            // Every visible row is at or above the watermark; min/max report the visible span.
            const visTs = visible.map((id) => stored.get(id)!);
            if (visTs.length > 0) expect(Math.min(...visTs)).toBeGreaterThanOrEqual(w2);
            expect(store.minTs).toBe(visTs.length ? Math.min(...visTs) : null);
            expect(store.maxTs).toBe(visTs.length ? Math.max(...visTs) : null);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('capacity eviction keeps the newest rows when events arrive in order', () => {
    const cfg: StoreConfig = { retentionUs: 1e15, maxRows: 1000, maxBytes: 1e12, segmentRows: 64, maxEventDepth: 8, maxStringBytes: 10_000 };
    const store = new SourceStore(edge, cfg);
    for (let b = 0; b < 100; b++) store.ingest(Array.from({ length: 50 }, (_, i) => ({ id: `e${b * 50 + i}`, timestamp: BASE + (b * 50 + i) * SEC, project: 'a' })), BASE);
    expect(store.rowCount).toBeLessThanOrEqual(1000);
    expect(store.rowCount).toBeGreaterThan(800);
    expect(store.maxTs).toBe(BASE + 4999 * SEC);
    expect(store.evicted + store.rowCount).toBe(5000);
    expect(store.stats().segments).toBeLessThanOrEqual(20);
  });

  it('retention hides rows as time passes', () => {
    const cfg: StoreConfig = { retentionUs: 10 * SEC, maxRows: 100, maxBytes: 1e12, segmentRows: 4, maxEventDepth: 8, maxStringBytes: 10_000 };
    const store = new SourceStore(edge, cfg);
    store.ingest(Array.from({ length: 10 }, (_, i) => ({ timestamp: BASE + i * SEC })), BASE + 9 * SEC);
    expect(store.rowCount).toBe(10);
    store.evict(BASE + 15 * SEC);
    expect(store.rowCount).toBe(5);
    expect(store.minTs).toBe(BASE + 5 * SEC);
    expect(store.evicted).toBe(5);
    expect(store.ingest([{ timestamp: BASE + 4 * SEC }, { timestamp: BASE + 14 * SEC }], BASE + 15 * SEC)).toEqual({ stored: 1, dropped: 1 });
  });
});

describe('Store and its configuration', () => {
  it('reads the environment with defaults', () => {
    const d = defaultStoreConfig({});
    expect(d.retentionUs).toBe(192 * 3600 * SEC);
    expect(d.maxRows).toBe(10_000_000);
    expect(d.maxBytes).toBe(defaultBytesPerSource());
    // Rows live off the V8 heap: the default fills at most half of the machine's memory.
    expect(d.maxBytes * 9).toBeLessThanOrEqual(totalmem() / 2);
    expect(d.maxBytes).toBeGreaterThan(0);
    const c = defaultStoreConfig({ RINGQL_RETENTION_HOURS: '1.5', RINGQL_MAX_ROWS_PER_SOURCE: '100', RINGQL_MAX_BYTES_PER_SOURCE: '5000' });
    expect(c).toMatchObject({ retentionUs: 1.5 * 3600 * SEC, maxRows: 100, maxBytes: 5000 });
  });
  it.each([
    ['RINGQL_RETENTION_HOURS', 'abc'],
    ['RINGQL_RETENTION_HOURS', '-1'],
    ['RINGQL_MAX_ROWS_PER_SOURCE', '1.5'],
    ['RINGQL_MAX_ROWS_PER_SOURCE', '0'],
    ['RINGQL_MAX_BYTES_PER_SOURCE', '8GB'],
  ])('rejects %s=%s naming it', (k, v) => {
    expect(() => defaultStoreConfig({ [k]: v })).toThrow(new RegExp(`${k}="${v.replace('.', '\\.')}"`));
  });
  it('holds the nine sources, found by name or id', () => {
    const store = new Store(defaultStoreConfig({}));
    expect(store.sources()).toHaveLength(9);
    for (const s of store.sources()) {
      expect(store.source(s.def.name)).toBe(s);
      expect(store.source(s.def.id)).toBe(s);
    }
    expect(store.source('nope')).toBeUndefined();
    expect(store.source('edge.logs.prod')!.hotKeys).toEqual(['metadata.request.url', 'metadata.request.path', 'metadata.request.method']);
    expect(store.source('postgres.logs')!.hotKeys).toEqual([]);
  });
});
