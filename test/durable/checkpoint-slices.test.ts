// Issue 18: a checkpoint's write phase frames its part files in time slices. The sliced framing writes
// the same bytes as encodePartFile, and a checkpoint of a real store yields to the event loop (other
// callbacks run before it ends) while still writing every part the store offered.

import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TimeSlicer } from '../../src/core/time-slicer.ts';
import { Checkpointer } from '../../src/durable/checkpointer.ts';
import { checkpointSources } from '../../src/durable/durability.ts';
import { encodePartFile, encodePartFileSliced, readPartFile } from '../../src/durable/part-file.ts';
import { Wal } from '../../src/durable/wal.ts';
import { generateEvents } from '../../src/gen/generate.ts';
import { compressionCaughtUp, compressorStats, compressPendingNow } from '../../src/store/block-compressor.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';

const NOW = Date.parse('2025-03-01T12:00:00Z') * 1000;

describe('sliced part-file framing', () => {
  it('writes the same bytes as encodePartFile, yielding between pieces', async () => {
    const big = Buffer.alloc(700 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31 + 7) & 0xff;
    const chunks = [Buffer.from('{"n":3}'), Buffer.alloc(0), big, Buffer.from('tail')];
    const header = { key: 'seg.1.e0', source: 'edge_logs', events: 3, format: 1 };
    const slicer = new TimeSlicer(0);
    const sliced = await encodePartFileSliced(header, chunks, slicer);
    expect(Buffer.concat(sliced).equals(Buffer.concat(encodePartFile(header, chunks)))).toBe(true);
    // 700 KiB is three CRC pieces; a 0 ms slice is spent after each.
    expect(slicer.pauses).toBeGreaterThanOrEqual(3);
  });
});

/** A store holding `events` generated events, its sealed blocks still queued for compression. */
function storeOf(events: number, seed: number): Store {
  const store = new Store({ ...defaultStoreConfig({}), segmentRows: 512 });
  const batches = new Map<string, Record<string, unknown>[]>();
  for (const { source, event } of generateEvents({ events, projects: 3, days: 2, seed, endUs: NOW })) {
    let b = batches.get(source);
    if (!b) batches.set(source, (b = []));
    b.push(event as Record<string, unknown>);
  }
  for (const [source, b] of batches) store.source(source)!.ingest(b, NOW);
  return store;
}

describe('a checkpoint of a real store', () => {
  it('lets other callbacks run while it frames its parts, and writes every part', async () => {
    const store = storeOf(6000, 7);
    compressPendingNow();
    const dir = mkdtempSync(join(tmpdir(), 'ringql-ckslice-'));
    const wal = Wal.open({ dir: join(dir, 'wal'), fsync: 'interval', fsyncMs: 50 }, []);
    const ck = new Checkpointer(join(dir, 'checkpoint'), wal);
    let ticks = 0;
    let done = false;
    const tick = (): void => { ticks++; if (!done) setImmediate(tick); };
    const running = ck.checkpoint(checkpointSources(store));
    setImmediate(tick);
    const report = (await running)!;
    done = true;
    await wal.close();
    expect(report.partsWritten).toBeGreaterThan(3);
    expect(report.pauses).toBeGreaterThan(0);
    // Every pause is a turn of the loop: the ticking callback ran at least that often before the end.
    expect(ticks).toBeGreaterThanOrEqual(report.pauses);
    const files = readdirSync(join(dir, 'checkpoint')).filter((f) => f.endsWith('.part'));
    expect(files).toHaveLength(report.partsWritten);
    for (const f of files) expect(readPartFile(join(dir, 'checkpoint', f)).chunks.length).toBeGreaterThan(0);
  });
});

describe('a checkpoint taken while sealed blocks wait for compression', () => {
  it('leaves them to the compressor\'s slices before its synchronous snapshot', async () => {
    compressPendingNow();
    const store = storeOf(4000, 11);
    const queued = compressorStats().pending;
    expect(queued).toBeGreaterThan(0);
    const dir = mkdtempSync(join(tmpdir(), 'ringql-cksettle-'));
    const wal = Wal.open({ dir: join(dir, 'wal'), fsync: 'interval', fsyncMs: 50 }, []);
    const ck = new Checkpointer(join(dir, 'checkpoint'), wal, () => {}, () => compressionCaughtUp());
    const pendingAtSnapshot: number[] = [];
    const sources = checkpointSources(store).map((s) => ({ name: s.name, checkpointParts: () => { pendingAtSnapshot.push(compressorStats().pending); return s.checkpointParts(); } }));
    const report = await ck.checkpoint(sources);
    await wal.close();
    expect(report).not.toBeNull();
    expect(pendingAtSnapshot.length).toBeGreaterThan(0);
    expect(pendingAtSnapshot.every((n) => n === 0)).toBe(true);
  });

  it('caught-up waits resolve at once when nothing is queued', async () => {
    compressPendingNow();
    await expect(compressionCaughtUp()).resolves.toBeUndefined();
  });
});
