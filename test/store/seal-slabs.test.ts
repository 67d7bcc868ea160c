// Seal slabs are reused only once no block refers to them: a slab lent with raw blocks is never handed
// out again, one whose blocks are all compressed is; rows sealed into reused slabs (and those sealed
// before) read back exactly; spare slabs are counted as resident and dropped when the budget sheds.

import { describe, expect, it } from 'vitest';
import { SealSlabs } from '../../src/store/seal-slabs.ts';
import type { Block } from '../../src/store/row-blocks.ts';
import { SourceStore } from '../../src/store/source-store.ts';
import { sourceByNameOrId } from '../../src/store/sources.ts';
import { normalizeEvent } from '../../src/store/event.ts';
import type { StoreConfig } from '../../src/store/types.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';

/** Stands in for a block: SealSlabs reads only whether its raw bytes are still held. */
function fakeBlock(raw: Buffer | null): Block {
  return { raw } as unknown as Block;
}

const sameMemory = (a: Buffer, b: Buffer): boolean => a.buffer === b.buffer;

describe('SealSlabs', () => {
  it('never hands out a slab while one of its blocks still holds raw bytes', () => {
    const slabs = new SealSlabs();
    const a = slabs.take(100_000);
    const blocks = [fakeBlock(null), fakeBlock(a.subarray(0, 10)), fakeBlock(a.subarray(10, 20))];
    slabs.lend(a, blocks);
    const b = slabs.take(100_000);
    expect(sameMemory(a, b)).toBe(false);
    // Compressed but one: still not free.
    (blocks[2] as { raw: Buffer | null }).raw = null;
    slabs.lend(b, [fakeBlock(b)]);
    expect(sameMemory(slabs.take(100_000), a)).toBe(false);
    expect(slabs.spareBytes).toBe(0);
    expect(slabs.reused).toBe(0);
  });

  it('hands a slab out again once all its blocks are compressed, and counts it while spare', () => {
    const slabs = new SealSlabs();
    const a = slabs.take(100_000);
    expect(a.length).toBeGreaterThanOrEqual(100_000);
    const blocks = [fakeBlock(a.subarray(0, 50_000)), fakeBlock(a.subarray(50_000, 100_000))];
    slabs.lend(a, blocks);
    for (const blk of blocks) (blk as { raw: Buffer | null }).raw = null;
    expect(slabs.spareBytes).toBe(a.length);
    const again = slabs.take(90_000);
    expect(again).toBe(a);
    expect(slabs.reused).toBe(1);
    expect(slabs.spareBytes).toBe(0);
  });

  it('does not hand a spare out for far fewer bytes, nor for more than it holds; dropSpares forgets it', () => {
    const slabs = new SealSlabs();
    const a = slabs.take(100_000);
    slabs.lend(a, [fakeBlock(null)]);
    expect(sameMemory(slabs.take(10_000), a)).toBe(false);
    expect(sameMemory(slabs.take(a.length + 1), a)).toBe(false);
    expect(slabs.spareBytes).toBe(a.length);
    slabs.dropSpares();
    expect(slabs.spareBytes).toBe(0);
    expect(sameMemory(slabs.take(100_000), a)).toBe(false);
  });

  it('tracks a bounded number of lent slabs (a compression backlog does not make seals slower)', () => {
    const slabs = new SealSlabs();
    for (let i = 0; i < 100; i++) { const s = slabs.take(2000); slabs.lend(s, [fakeBlock(s)]); }
    expect(slabs.lentCount).toBeLessThanOrEqual(3); // MAX_LENT, and the one lent since the last take
  });
});

const BASE = 1_736_000_000_000_000;
const edge = sourceByNameOrId('edge.logs.prod')!;
const config: StoreConfig = { retentionUs: 1e15, maxRows: 1e9, maxBytes: 1e12, segmentRows: 64, maxEventDepth: 16, maxStringBytes: 1 << 20, compress: true, blockBytes: 4096 };
const NORMALISE = { maxEventDepth: 16, maxStringBytes: 1 << 20, nowUs: BASE, schema: null, hotPaths: [] };

function events(from: number, n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    // Out of time order within a batch and over several projects: seals reorder rows by (project, ts).
    return { id: `e${i}`, timestamp: BASE + ((i * 7919) % 1000) * 1000, event_message: `row ${i} ${'é'.repeat(i % 17)} ${'x'.repeat((i * 31) % 300)}`, project: `p${i % 3}`, metadata: { n: i } };
  });
}

function readAll(store: SourceStore): Map<string, string> {
  const out = new Map<string, string>();
  for (const b of store.scan({ order: 'any' })) {
    for (let i = 0; i < b.n; i++) { const json = b.rows[i]!.json(b.idx[i]!); out.set((JSON.parse(json) as { id: string }).id, json); }
  }
  return out;
}

describe('seals into pooled slabs', () => {
  it.each([true, false])('store every row exactly, compressed between batches: %s', (settle) => {
    const store = new SourceStore(edge, config);
    const all: Record<string, unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      const batch = events(i * 50, 50);
      all.push(...batch);
      store.ingest(batch, BASE);
      if (settle) compressPendingNow();
      // Every row stored so far reads back as normalised, sealed before or after any reuse.
      if (i % 13 === 12 || i === 39) {
        const got = readAll(store);
        expect(got.size).toBe(all.length);
        for (const e of all) {
          const want = normalizeEvent(e, edge, NORMALISE);
          if (typeof want === 'string') throw new Error(want);
          expect(got.get(e.id as string)).toBe(want.json);
        }
      }
    }
    const slabs = (store as unknown as { rows: { slabs: SealSlabs } }).rows.slabs;
    // 2000 rows in 64-row seals: with compression between batches, the seals after the first reuse a slab.
    if (settle) expect(slabs.reused).toBeGreaterThan(20);
    else expect(slabs.reused).toBe(0);
    compressPendingNow();
    expect(store.stats().resident).toBeGreaterThanOrEqual(slabs.spareBytes);
  });
});

describe('SealSlabs when ingest stops', () => {
  it('gives its spare slabs back after IDLE_MS without a seal', async () => {
    const { vi } = await import('vitest');
    const { IDLE_MS } = await import('../../src/store/seal-slabs.ts');
    vi.useFakeTimers();
    try {
      const slabs = new SealSlabs();
      const a = slabs.take(100_000);
      const blk = fakeBlock(a);
      slabs.lend(a, [blk]);
      (blk as { raw: Buffer | null }).raw = null;
      // Seals keep coming: the spare stays.
      vi.advanceTimersByTime(IDLE_MS / 2);
      const b = slabs.take(100_000);
      expect(b).toBe(a);
      slabs.lend(b, [fakeBlock(null)]);
      vi.advanceTimersByTime(IDLE_MS);
      expect(slabs.spareBytes).toBe(a.length);
      // None for IDLE_MS: given back.
      vi.advanceTimersByTime(IDLE_MS + 10);
      expect(slabs.spareBytes).toBe(0);
      expect(slabs.lentCount).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
