// Eviction reaches the disk: once retention drops sealed segments, the next checkpoint no longer lists
// their part files and deletes them, so the checkpoint folder shrinks with the store.

import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { Wal } from '../../src/durable/wal.ts';
import { Checkpointer } from '../../src/durable/checkpointer.ts';
import { checkpointSources } from '../../src/durable/durability.ts';
import { readManifest } from '../../src/durable/manifest.ts';

const HOUR = 3600e6;
const T0 = Date.parse('2025-03-01T00:00:00Z') * 1000;

describe('checkpoints after eviction', () => {
  it('delete the part files of segments retention dropped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringql-ckevict-'));
    // maxRows / 16 = segmentRows: segments never merge, so each holds one hour and retention drops whole ones.
    const store = new Store({ ...defaultStoreConfig({}), segmentRows: 100, maxRows: 1600, retentionUs: 10 * HOUR });
    const src = store.source('edge.logs.prod')!;
    // Ten hours of events, one batch per hour (each batch seals its own segments).
    for (let h = 0; h < 10; h++) {
      const batch = Array.from({ length: 150 }, (_, i) => ({ id: `h${h}-${i}`, project: 'p', event_message: `m${i}`, timestamp: new Date((T0 + h * HOUR + i * 1000) / 1000).toISOString() }));
      src.ingest(batch, T0 + 10 * HOUR);
    }
    const wal = Wal.open({ dir: join(dir, 'wal'), fsync: 'interval', fsyncMs: 50 }, []);
    const ck = new Checkpointer(join(dir, 'checkpoint'), wal);
    await ck.checkpoint(checkpointSources(store));
    const partsBefore = readdirSync(join(dir, 'checkpoint')).filter((f) => f.startsWith('edge.logs.prod--') && !f.includes('--head--'));
    expect(partsBefore.length).toBeGreaterThan(2);
    // Retention moves on by six hours: the older segments go from memory...
    store.evict(T0 + 16 * HOUR);
    expect(src.rowCount).toBeLessThan(1500);
    // ...and the next checkpoint lets their files go.
    await ck.checkpoint(checkpointSources(store));
    await wal.close();
    const files = readdirSync(join(dir, 'checkpoint'));
    const partsAfter = files.filter((f) => f.startsWith('edge.logs.prod--') && !f.includes('--head--'));
    expect(partsAfter.length).toBeLessThan(partsBefore.length);
    const listed = new Set(readManifest(join(dir, 'checkpoint'))!.sources.flatMap((s) => s.parts.map((p) => p.file)));
    expect(files.filter((f) => f.endsWith('.part') && !listed.has(f))).toEqual([]);
  });
});
