// Issue 15: a checkpoint racing the store's compaction and the memory budget. The sealed segments it has
// yet to write are not merged away meanwhile (it would otherwise keep each one alive beside the merged
// copy, outside the store), merges resume once it is done, and a restart holds exactly what the store held.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { heldByPhase } from './held-by-phase.ts';
import { encodeBatch } from '../../src/durable/batch-record.ts';
import { Checkpointer, type CheckpointPart } from '../../src/durable/checkpointer.ts';
import { checkpointSources, recoverStore } from '../../src/durable/durability.ts';
import { RECORD_BATCH } from '../../src/durable/record-frame.ts';
import { Wal } from '../../src/durable/wal.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import type { StoreConfig } from '../../src/store/types.ts';

const NOW = Date.parse('2025-03-01T12:00:00Z') * 1000;
const SOURCE = 'edge.logs.prod';

/** `n` events of phase `tag` (ids `<tag>-<i>`), one a second, each phase after the one before. */
function phase(tag: 'a' | 'b' | 'c', n: number): Record<string, unknown>[] {
  const start = NOW - 3 * 3600e6 + { a: 0, b: 1, c: 2 }[tag] * 3600e6;
  return Array.from({ length: n }, (_, i) => ({
    id: `${tag}-${i}`, project: 'default', timestamp: new Date((start + i * 1e6) / 1000).toISOString(),
    event_message: `GET /api/v1/items/${(i * 7919) % 100_000} 200 ${i % 97}ms request ${tag}${i} from 10.0.${i % 256}.${(i * 13) % 256}`,
  }));
}

describe('a checkpoint while the store merges segments and the budget evicts', () => {
  it('keeps the segments it has to write unmerged until written, and a restart holds what the store held', async () => {
    // 250-row seals merge four at a time: phase a (6000 rows, 24 seals) leaves segments of 4000, 1000 and
    // 1000 rows; 2000 more rows make the two 1000s merge with their own, unless held.
    const cfg: StoreConfig = { ...defaultStoreConfig({}), segmentRows: 250, retentionUs: 30 * 24 * 3600e6 };
    // The budget: phase a as a twin store holds it before its blocks are compressed (the peak), plus room
    // for ~2000 more rows; phase b (5000 rows) then makes it evict the oldest segment (4000 rows), not more.
    const twin = new Store(cfg);
    const twinBatch = phase('a', 6000);
    const used: number[] = [];
    let peak = 0;
    for (let i = 0; i < twinBatch.length; i += 500) {
      twin.source(SOURCE)!.ingest(twinBatch.slice(i, i + 500), NOW);
      peak = Math.max(peak, twin.memoryStats().used_bytes);
      compressPendingNow();
      used.push(twin.memoryStats().used_bytes);
    }
    const perRow = (used[11]! - used[5]!) / 3000;
    // A head part counts against the budget while it is written (it is a copy): the largest one is room too.
    const heads = twin.sources().map((s) => s.checkpointParts()![0]!).map((h) => h.chunks().reduce((n, c) => n + c.length, 0) - (h.sharedBytes?.() ?? 0));
    const a = new Store({ ...cfg, maxMemory: Math.round(peak + 2000 * perRow + Math.max(...heads)) });
    const dir = mkdtempSync(join(tmpdir(), 'ringql-ckmerge-'));
    const wal = Wal.open({ dir: join(dir, 'wal'), fsync: 'interval', fsyncMs: 50 }, []);
    const ck = new Checkpointer(join(dir, 'checkpoint'), wal);
    a.countCheckpoint(() => ck.heldBytes());
    const logged = (batch: Record<string, unknown>[]): void => {
      for (let i = 0; i < batch.length; i += 500) {
        const part = batch.slice(i, i + 500);
        a.source(SOURCE)!.ingest(part, NOW, (maxTs) => wal.appendSync(RECORD_BATCH, encodeBatch(SOURCE, part), maxTs));
        compressPendingNow();
      }
    };
    logged(phase('a', 6000));
    expect(a.memoryStats().evicted_for_budget).toBe(0);

    const segments: CheckpointPart[] = [];
    const sources = checkpointSources(a).map((s) => ({ ...s, checkpointParts: () => {
      const parts = s.checkpointParts();
      for (const p of parts ?? []) if (p.immutable) segments.push(p);
      return parts;
    } }));
    const running = ck.checkpoint(sources);
    expect(segments.length).toBeGreaterThanOrEqual(2);
    // While its parts are written, 5000 rows seal (and would merge into the snapshot's segments) and the budget evicts.
    logged(phase('b', 5000));
    expect(a.memoryStats().evicted_for_budget).toBeGreaterThan(0);
    const waiting = segments.filter((p) => !p.evicted!());
    expect(waiting.length).toBeGreaterThan(0);
    // Every snapshot segment not evicted is still the store's own: none was merged into a copy beside it.
    for (const p of waiting) expect(p.detachedBytes!()).toBe(0);
    expect(a.memoryStats().checkpoint_in_flight).toBe(ck.heldBytes());
    await running;
    expect(ck.heldBytes()).toBe(0);
    const heldA = await heldByPhase(a, NOW);
    expect(heldA.a).toBeGreaterThan(0);
    expect(heldA.a).toBeLessThan(6000);
    expect(heldA.b).toBeGreaterThan(0);

    // A restart (no budget) holds exactly what the store held: neither the evicted events nor twice the merged ones.
    await wal.close();
    const b = new Store(cfg);
    recoverStore(b, dir, { fsync: 'interval', fsyncMs: 50 }, { discardCorrupt: false, nowUs: () => NOW, log: () => {} });
    expect(await heldByPhase(b, NOW)).toEqual(heldA);

  }, 20_000);

  it('lets compaction merge a written segment again, and releases what it holds when it ends', async () => {
    const store = new Store({ ...defaultStoreConfig({}), segmentRows: 250, retentionUs: 30 * 24 * 3600e6 });
    const src = store.source(SOURCE)!;
    const ingest = (batch: Record<string, unknown>[]): void => {
      for (let i = 0; i < batch.length; i += 500) { src.ingest(batch.slice(i, i + 500), NOW); compressPendingNow(); }
    };
    ingest(phase('a', 6000));
    const dir = mkdtempSync(join(tmpdir(), 'ringql-ckmerge-'));
    const ck = new Checkpointer(join(dir, 'checkpoint'), Wal.open({ dir: join(dir, 'wal'), fsync: 'interval', fsyncMs: 50 }, []));
    const segments: CheckpointPart[] = [];
    const running = ck.checkpoint(checkpointSources(store).map((s) => ({ ...s, checkpointParts: () => {
      const parts = s.checkpointParts();
      for (const p of parts ?? []) if (p.immutable && s.name === SOURCE) segments.push(p);
      return parts;
    } })));
    ingest(phase('b', 2000));
    // The snapshot's segments: 4000, 1000 and 1000 rows (24 seals of 250, merged four at a time).
    expect(segments.length).toBe(3);
    // The 2000 new rows would have merged with its two 1000-row segments: held, they did not.
    expect(segments.map((p) => p.detachedBytes!())).toEqual([0, 0, 0]);
    await running;
    ingest(phase('c', 2000));
    // Written, they merge as before (the two 1000s with the 2000 and 1000 made since): they left the store
    // without their rows being evicted; the 4000 stays as it is until three more its size follow.
    expect(segments.map((p) => [p.evicted!(), p.detachedBytes!() > 0])).toEqual([[false, false], [false, true], [false, true]]);
    expect(src.rowCount).toBe(10_000);
  });
});
