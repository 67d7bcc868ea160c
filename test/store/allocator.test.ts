// The glibc allocator settings every process holding a store gets (native-ingest.ts) and the trims the
// store asks for after seals, merges and evictions (allocator-trim.ts), through the addon's entry points.

import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { INGEST_ADDON, MALLOC_SETTINGS } from '../../src/store/native-ingest.ts';
import { trimNow, trimStats } from '../../src/store/allocator-trim.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { projectPath } from '../../src/core/project-root.ts';

const BASE = 1_736_000_000_000_000;

/**
 * In a fresh node: frees a 4 MiB buffer, then allocates 1 MiB; prints how much glibc's mmapped bytes grew.
 * `tuned` first imports the store's addon module (as every process holding a store does), else the bare addon.
 */
function mappedGrowthAfterBigFree(tuned: boolean): number {
  const load = tuned
    ? `(await import(${JSON.stringify(projectPath('src/store/native-ingest.ts'))})).INGEST_ADDON`
    : `(await import('node:module')).createRequire(import.meta.url)(${JSON.stringify(projectPath('src/native/build/Release/ringql_ingest.node'))})`;
  const script = `const addon = ${load};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let big = Buffer.allocUnsafeSlow(4 << 20); big.fill(1); big = null;
gc(); await sleep(50); gc(); await sleep(50);
const m1 = addon.mallocInfo().hblkhd;
const keep = Buffer.allocUnsafeSlow(2 << 20);
console.log(JSON.stringify({ grew: addon.mallocInfo().hblkhd - m1, n: keep.length }));`;
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: projectPath('.') });
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return (JSON.parse(r.stdout.trim().split('\n').pop()!) as { grew: number }).grew;
}

describe('allocator settings', () => {
  it('map big buffers on their own even after a bigger one was freed', () => {
    // glibc's dynamic threshold: freeing the mapped 4 MiB raises it to 4 MiB, so 2 MiB then comes from the heap.
    expect(mappedGrowthAfterBigFree(false)).toBe(0);
    // Fixed at 1 MiB when the store's addon loads: the 2 MiB buffer is a mapping of its own (plus a page of header).
    expect(mappedGrowthAfterBigFree(true)).toBeGreaterThanOrEqual(2 << 20);
  });

  it('are accepted by mallopt, and bad arguments are refused', () => {
    expect(INGEST_ADDON.mallocTune(MALLOC_SETTINGS.mmapThreshold, MALLOC_SETTINGS.trimThreshold, MALLOC_SETTINGS.arenaMax)).toBe(0);
    expect(INGEST_ADDON.mallocTune(0, 0, 0)).toBe(0);
    expect(() => INGEST_ADDON.mallocTune(-1, 0, 0)).toThrow(RangeError);
    expect(() => INGEST_ADDON.mallocTune(2 ** 31, 0, 0)).toThrow(RangeError);
  });

  it('report mallinfo2 figures whose in-use and free bytes make up the heap', () => {
    const m = INGEST_ADDON.mallocInfo();
    for (const k of ['arena', 'ordblks', 'hblks', 'hblkhd', 'uordblks', 'fordblks', 'keepcost'] as const) expect(Number.isInteger(m[k]) && m[k] >= 0).toBe(true);
    expect(m.uordblks + m.fordblks).toBe(m.arena);
    expect(m.arena).toBeGreaterThan(0);
  });
});

describe('allocator trims', () => {
  it('are asked for by a seal and run once', () => {
    trimNow();
    expect(trimStats().scheduled).toBe(false);
    const store = new Store({ ...defaultStoreConfig({}), segmentRows: 100 });
    const src = store.source('edge.logs.prod')!;
    src.ingest(Array.from({ length: 99 }, (_, i) => ({ id: `e${i}`, timestamp: BASE + i, project: 'p' })), BASE + 1000);
    expect(trimStats().scheduled).toBe(false);
    src.ingest(Array.from({ length: 150 }, (_, i) => ({ id: `f${i}`, timestamp: BASE + 100 + i, project: 'p' })), BASE + 1000);
    expect(trimStats().scheduled).toBe(true);
    const before = trimStats().trims;
    expect(typeof trimNow()).toBe('boolean');
    expect(trimStats()).toEqual({ trims: before + 1, scheduled: false });
  });

  it('are asked for when eviction drops a segment', () => {
    const store = new Store({ ...defaultStoreConfig({}), segmentRows: 50 });
    const src = store.source('edge.logs.prod')!;
    src.ingest(Array.from({ length: 200 }, (_, i) => ({ id: `e${i}`, timestamp: BASE + i, project: 'p' })), BASE + 1000);
    trimNow();
    src.raiseWatermark(BASE + 10_000);
    expect(trimStats().scheduled).toBe(true);
    trimNow();
  });
});

describe('holdingFreedHeap (the column load)', () => {
  it('keeps freed heap top while it runs, then restores the threshold and trims a moment later, also when it throws', () => {
    // In a fresh node: glibc's releasable heap top (keepcost) after a 600 KiB buffer (under the 1 MiB mmap threshold) is freed.
    const script = `const { INGEST_ADDON } = await import(${JSON.stringify(projectPath('src/store/native-ingest.ts'))});
const { holdingFreedHeap } = await import(${JSON.stringify(projectPath('src/store/allocator-trim.ts'))});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const freedTop = async () => { let b = Buffer.allocUnsafeSlow(600 << 10); b.fill(1); b = null; gc(); await sleep(50); gc(); await sleep(50); return INGEST_ADDON.mallocInfo().keepcost; };
const before = await freedTop();
let inside = 0;
await holdingFreedHeap(async () => { inside = await freedTop(); });
const right = INGEST_ADDON.mallocInfo().keepcost;
await sleep(1200); // the trim it asks for runs TRIM_DELAY_MS later
const after = INGEST_ADDON.mallocInfo().keepcost;
let threw = false;
try { await holdingFreedHeap(async () => { throw new Error('load failed'); }); } catch (e) { threw = e.message === 'load failed'; }
const later = await freedTop();
console.log(JSON.stringify({ before, inside, right, after, threw, later }));`;
    const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: projectPath('.') });
    if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
    const f = JSON.parse(r.stdout.trim().split('\n').pop()!) as { before: number; inside: number; right: number; after: number; threw: boolean; later: number };
    expect(f.before).toBeLessThan(600 << 10); // given back at the free (128 KiB threshold)
    expect(f.inside).toBeGreaterThanOrEqual(600 << 10); // kept for the next body
    expect(f.right).toBeGreaterThanOrEqual(600 << 10); // the answer does not wait for the trim...
    expect(f.after).toBeLessThan(600 << 10); // ...which runs a moment after the load
    expect(f.threw).toBe(true);
    expect(f.later).toBeLessThan(600 << 10); // the threshold is back after a failed load too
  });
});
