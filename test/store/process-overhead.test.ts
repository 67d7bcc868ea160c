// RINGQL_MAX_MEMORY bounding the whole process (issue 15): the overhead estimate (RSS − counted) is
// smoothed and floored, and a Store that counts the process holds its bytes to budget − overhead,
// evicting the oldest rows first and exactly, without collapsing when freed memory stays resident.

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ProcessOverhead, OVERHEAD_SAMPLE_MS, type OverheadSource } from '../../src/store/process-overhead.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { clearBlockCache } from '../../src/store/block-cache.ts';
import { heapLimitMbFromEnv } from '../../src/core/memory-env.ts';
import { nodeFlags } from '../../src/cli/node-flags.ts';

const MiB = 2 ** 20;
const BASE = 1_736_000_000_000_000;

/** A clock that moves one sampling period per call, so every enforcement samples. */
function ticking(rss: () => number): OverheadSource {
  let t = 0;
  return { rss, now: () => (t += OVERHEAD_SAMPLE_MS) };
}

function fill(store: Store, events: number, from = 0): void {
  const edge = store.source('edge.logs.prod')!;
  for (let k = from; k < from + events; k += 200) {
    // Random text compresses poorly, so the counted bytes really grow.
    edge.ingest(Array.from({ length: 200 }, (_, i) => ({ id: `e${k + i}`, timestamp: BASE + (k + i) * 1000, project: 'p',
      event_message: randomBytes(240).toString('base64') })), BASE + 1e9);
  }
}

describe('process overhead estimate', () => {
  it('smooths toward RSS − counted, samples at most every period and floors the store at a quarter of the budget', () => {
    let rss = 100 * MiB, t = 0;
    const lines: string[] = [];
    const o = new ProcessOverhead(64 * MiB, (l) => lines.push(l), { rss: () => rss, now: () => t });
    expect(o.sample(40 * MiB)).toBe(60 * MiB); // first sample taken as it is
    expect(o.storeTarget()).toBe(16 * MiB); // 64 − 60 < the floor of 16
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/RINGQL_MAX_MEMORY/);
    rss = 50 * MiB;
    expect(o.sample(40 * MiB)).toBe(60 * MiB); // not due yet
    t += OVERHEAD_SAMPLE_MS;
    expect(o.sample(40 * MiB)).toBe(60 * MiB - 50 * MiB / 4); // a quarter of the way to 10 MiB
    for (let i = 0; i < 60; i++) { t += OVERHEAD_SAMPLE_MS; o.sample(40 * MiB); }
    expect(Math.abs(o.figures().overhead - 10 * MiB)).toBeLessThan(MiB / 64);
    expect(o.storeTarget()).toBeGreaterThan(54 * MiB - MiB / 64);
    expect(lines).toHaveLength(1); // loud once, not on every sample
  });
});

describe('the V8 heap limit npm start derives', () => {
  it('is half the budget within 1024..8192 MiB, RINGQL_HEAP_MB overriding it, and names a bad value', () => {
    expect(heapLimitMbFromEnv({ RINGQL_MAX_MEMORY: '512M' })).toBe(1024);
    expect(heapLimitMbFromEnv({ RINGQL_MAX_MEMORY: '6G' })).toBe(3072);
    expect(heapLimitMbFromEnv({ RINGQL_MAX_MEMORY: '64G' })).toBe(8192);
    expect(heapLimitMbFromEnv({}, 8 * 2 ** 30)).toBe(2048); // budget: half of 8 GiB
    expect(heapLimitMbFromEnv({ RINGQL_MAX_MEMORY: '512M', RINGQL_HEAP_MB: '300' })).toBe(300);
    for (const bad of ['lots', '12.5', '10', '-1']) expect(() => heapLimitMbFromEnv({ RINGQL_HEAP_MB: bad })).toThrow(/RINGQL_HEAP_MB/);
    expect(nodeFlags({ RINGQL_MAX_MEMORY: '4G' })).toEqual(['--max-old-space-size=2048', '--max-semi-space-size=4']);
  });
});

describe('a store that counts the process', () => {
  it('holds its bytes to budget − overhead, oldest rows first', () => {
    clearBlockCache();
    const max = 8 * MiB, extra = 3 * MiB;
    const store = new Store({ ...defaultStoreConfig({}), segmentRows: 256, maxMemory: max, compress: true });
    store.countProcess(() => {}, ticking(() => counted(store) + extra));
    fill(store, 40_000);
    const m = store.memoryStats();
    expect(m.process!.overhead_bytes).toBeGreaterThan(2.5 * MiB);
    expect(m.process!.store_target_bytes).toBeLessThanOrEqual(max - 2.5 * MiB);
    // One segment of slack: enforcement runs after each ingest, before the next one adds rows.
    expect(m.used_bytes).toBeLessThanOrEqual(m.process!.store_target_bytes + MiB);
    expect(m.evicted_for_budget).toBeGreaterThan(0);
    exactOldestFirst(store);
  });

  it('keeps a quarter of the budget when freed memory stays resident (no runaway eviction)', () => {
    clearBlockCache();
    const max = 8 * MiB;
    let peak = 0;
    const store = new Store({ ...defaultStoreConfig({}), segmentRows: 256, maxMemory: max, compress: true });
    // An allocator that never gives memory back: RSS is the peak of what was ever counted, plus 1 MiB.
    store.countProcess(() => {}, ticking(() => (peak = Math.max(peak, counted(store))) + MiB));
    fill(store, 40_000);
    const m = store.memoryStats();
    expect(m.used_bytes).toBeGreaterThanOrEqual(max / 4 - MiB);
    expect(m.used_bytes).toBeLessThanOrEqual(max);
    exactOldestFirst(store);
  });
});

function counted(store: Store): number {
  const m = store.memoryStats();
  return m.used_bytes;
}

/** The rows left are exactly the newest ones: ids form one contiguous run ending at the last sent. */
function exactOldestFirst(store: Store): void {
  const edge = store.source('edge.logs.prod')!;
  const ids: number[] = [];
  for (const b of edge.scan({ order: 'any' })) for (let i = 0; i < b.n; i++) ids.push(Number((JSON.parse(b.rows[i]!.json(b.idx[i]!)) as { id: string }).id.slice(1)));
  ids.sort((a, b) => a - b);
  expect(ids.length).toBe(edge.rowCount);
  expect(ids.length).toBeGreaterThan(0);
  expect(ids[ids.length - 1]).toBe(39_999);
  expect(ids[ids.length - 1]! - ids[0]! + 1).toBe(ids.length);
}
