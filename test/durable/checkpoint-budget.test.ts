// Issue 15: a checkpoint taken while RINGQL_MAX_MEMORY evicts. It takes each part's bytes only when it
// writes that part, counts what it holds outside the store against the budget meanwhile, leaves out the
// segments the budget evicted since its snapshot, and a restart still gets every event the store holds.

import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { heldByPhase } from './held-by-phase.ts';
import { encodeBatch } from '../../src/durable/batch-record.ts';
import { Checkpointer } from '../../src/durable/checkpointer.ts';
import { checkpointSources, recoverStore } from '../../src/durable/durability.ts';
import { readManifest } from '../../src/durable/manifest.ts';
import { RECORD_BATCH } from '../../src/durable/record-frame.ts';
import { Wal } from '../../src/durable/wal.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import type { StoreConfig } from '../../src/store/types.ts';

const NOW = Date.parse('2025-03-01T12:00:00Z') * 1000;
const SOURCE = 'edge.logs.prod';
const PER_PHASE = 6000;
/** Phase b: as many events again, enough to make the budget (phase a's bytes + 20%) evict part of phase a. */
const PHASE_B = PER_PHASE;

/** `n` events of phase `tag` (ids `<tag>-<i>`), one a second, phase b after phase a. */
function phase(tag: 'a' | 'b', n: number): Record<string, unknown>[] {
  const start = NOW - 3 * 3600e6 + (tag === 'a' ? 0 : n * 1e6);
  return Array.from({ length: n }, (_, i) => ({
    id: `${tag}-${i}`, project: 'default', timestamp: new Date((start + i * 1e6) / 1000).toISOString(),
    event_message: `GET /api/v1/items/${(i * 7919) % 100_000} 200 ${i % 97}ms request ${tag}${i} from 10.0.${i % 256}.${(i * 13) % 256}`,
  }));
}

describe('a checkpoint while the memory budget evicts', () => {
  it('writes part by part, counts what it holds, leaves evicted segments out, and a restart keeps every held event', async () => {
    const cfg: StoreConfig = { ...defaultStoreConfig({}), segmentRows: 250, retentionUs: 30 * 24 * 3600e6 };
    // The budget: what phase a takes, measured in a twin store, plus a little; phase b then evicts phase a.
    // Sealed blocks are compressed after every batch, as the background compressor keeps up in the server.
    const twin = new Store(cfg);
    const twinBatch = phase('a', PER_PHASE);
    for (let i = 0; i < twinBatch.length; i += 500) { twin.source(SOURCE)!.ingest(twinBatch.slice(i, i + 500), NOW); compressPendingNow(); }
    const a = new Store({ ...cfg, maxMemory: Math.round(twin.memoryStats().used_bytes * 1.2) });
    const dir = mkdtempSync(join(tmpdir(), 'ringql-ckbudget-'));
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
    logged(phase('a', PER_PHASE));
    expect(a.memoryStats().evicted_for_budget).toBe(0);

    // The snapshot is taken in the call; the parts are written after it returns, while phase b evicts.
    let offered = 0;
    const sources = checkpointSources(a).map((s) => ({ ...s, checkpointParts: () => {
      const parts = s.checkpointParts();
      offered += parts?.length ?? 0;
      return parts;
    } }));
    const running = ck.checkpoint(sources);
    expect(ck.heldBytes()).toBeGreaterThan(0); // the head part being written
    expect(a.memoryStats().checkpoint_in_flight).toBe(ck.heldBytes());
    logged(phase('b', PHASE_B));
    expect(a.memoryStats().evicted_for_budget).toBeGreaterThan(0);
    const report = (await running)!;
    expect(ck.heldBytes()).toBe(0);
    await wal.close();

    const manifest = readManifest(join(dir, 'checkpoint'))!;
    const listed = manifest.sources.find((s) => s.name === SOURCE)!.parts;
    // Segments evicted before their turn were left out: fewer parts than the snapshot's, each listed one on disk.
    expect(report.partsWritten).toBe(manifest.sources.reduce((n, s) => n + s.parts.length, 0));
    expect(report.partsWritten).toBeLessThan(offered);
    for (const p of listed) expect(existsSync(join(dir, 'checkpoint', p.file))).toBe(true);
    const heldA = await heldByPhase(a, NOW);
    expect(heldA.a).toBeGreaterThan(0);
    expect(heldA.a).toBeLessThan(PER_PHASE);
    // The parts may hold rows the budget hid after they were written: the manifest's watermark hides them again.
    expect(listed.reduce((n, p) => n + p.events, 0)).toBeGreaterThanOrEqual(heldA.a!);
    expect(manifest.sources.find((s) => s.name === SOURCE)!.watermarkUs).toBe(a.source(SOURCE)!.watermarkUs());

    // A restart (no budget, so nothing is evicted at replay) gets every event the store still holds, and
    // only those: what the budget evicted does not come back.
    const b = new Store(cfg);
    recoverStore(b, dir, { fsync: 'interval', fsyncMs: 50 }, { discardCorrupt: false, nowUs: () => NOW, log: () => {} });
    const heldB = await heldByPhase(b, NOW);
    expect(heldA.b).toBeGreaterThan(0);
    // Nothing was evicted after the manifest: the restart holds exactly what the store held (the log's
    // events below the manifest's watermark were evicted before it and stay so).
    expect(heldB).toEqual(heldA);
  });
});
