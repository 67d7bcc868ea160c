// The transform thread (issue 16, item 2) against the main thread's transform: the same bodies (demo
// generator events of every source, seeded fuzzed bodies) give the same batches or reasons, and stores fed
// from the thread hold exactly what stores fed by ingestBytes do.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng, mutate } from '../fuzz/fuzz-targets.ts';
import { generateEvents } from '../../src/gen/generate.ts';
import { serializeEvent } from '../../src/gen/serialize.ts';
import { parseTimestamp } from '../../src/core/time.ts';
import { runTransform } from '../../src/store/byte-batch.ts';
import type { NativeBatch } from '../../src/store/native-ingest.ts';
import { TransformThread } from '../../src/store/transform-thread.ts';
import { snapshot, twinStores } from './byte-ingest-diff.ts';
import { BlockCodec, SMALL_ROW_TUNING } from '../../src/store/block-codec.ts';
import { compressOffThread, compressPendingNow, compressionCaughtUp, compressorStats } from '../../src/store/block-compressor.ts';
import { SourceStore } from '../../src/store/source-store.ts';
import { sourceByNameOrId } from '../../src/store/sources.ts';
import { defaultStoreConfig } from '../../src/store/store.ts';

const NOW = parseTimestamp('2025-01-15T12:00:00Z')!;
const RUNS = Number(process.env.BYTE_FUZZ_RUNS ?? 400);

let thread: TransformThread;
beforeAll(async () => { thread = await TransformThread.start(); });
afterAll(async () => { await thread.close(); });

/** A batch as plain comparable data (the thread's views arrive over other buffers). */
function plain(b: NativeBatch | string): unknown {
  if (typeof b === 'string') return b;
  return { n: b.n, rows: Buffer.from(b.rows).toString('latin1'), meta: [...b.meta], strs: Buffer.from(b.strs).toString('latin1'), strEnds: [...b.strEnds], descs: Buffer.from(b.descs).toString('latin1'), descEnds: [...b.descEnds] };
}

function demoBodies(): { source: string; body: Buffer; ndjson: boolean }[] {
  const bySource = new Map<string, string[]>();
  for (const { source, event } of generateEvents({ events: 1200, projects: 3, days: 1, seed: 11, endUs: NOW })) {
    let lines = bySource.get(source);
    if (!lines) bySource.set(source, (lines = []));
    lines.push(serializeEvent(source, event));
  }
  const out = [];
  for (const [source, lines] of bySource) {
    for (let i = 0; i < lines.length; i += 100) {
      const chunk = lines.slice(i, i + 100), ndjson = (i / 100) % 2 === 1;
      out.push({ source, ndjson, body: Buffer.from(ndjson ? chunk.join('\n') : `{"batch":[${chunk.join(',')}]}`) });
    }
  }
  return out;
}

describe('the transform thread', () => {
  it('stores what the main thread stores: demo events of every source, batches and NDJSON, in order', async () => {
    const bodies = demoBodies();
    const twins = new Map<string, ReturnType<typeof twinStores>>();
    // All posted at once: answers come back in the order asked, and each is committed as it arrives.
    const seeds = bodies.map((_, i) => Buffer.alloc(16, i));
    const answers = bodies.map((b, i) => {
      const t = twins.get(b.source) ?? twins.set(b.source, twinStores(b.source)).get(b.source)!;
      return thread.transform(t.fast.transformRequest(b.body, b.ndjson, NOW, seeds[i]!));
    });
    for (let i = 0; i < bodies.length; i++) {
      const { source, body, ndjson } = bodies[i]!;
      const t = twins.get(source)!;
      const fromThread = t.fast.ingestTransformed(await answers[i]!, NOW);
      const here = t.ref.ingestBytes(body, ndjson, NOW, { idSeed: seeds[i]! });
      expect(fromThread).toEqual(here);
      expect(typeof here).not.toBe('string');
    }
    for (const t of twins.values()) expect(snapshot(t.fast)).toEqual(snapshot(t.ref));
    expect(twins.size).toBeGreaterThan(5);
  });

  it('gives the same batch or the same reason for seeded fuzzed bodies (malformed UTF-8, truncation, deep nesting)', async () => {
    const rng = new Rng(Number(process.env.BYTE_FUZZ_SEED ?? 16));
    const lines = [...generateEvents({ events: 12, projects: 2, days: 1, seed: 5, endUs: NOW })].map((e) => serializeEvent(e.source, e.event));
    const seedBodies = lines.map((l, i) => (i % 2 ? `[${l},${lines[0]}]` : l));
    seedBodies.push('[{"metadata":' + '{"a":'.repeat(40) + '1' + '}'.repeat(41) + '}]', '[{"timestamp":1736935200123456789,"metadata":{"n":1e999}}]');
    const tokens = ['{', '}', '[', ']', ',', ':', '"', 'null', '1e999', '-0', '"\\u0000"', '{"metadata":', '\n', '"\\ud800"', '\u00e9', '"timestamp":', '"__proto__":'];
    const t = twinStores('edge.logs.prod');
    let declined = 0, took = 0;
    for (let i = 0; i < RUNS; i++) {
      let body = Buffer.from(mutate(rng, rng.pick(seedBodies), tokens), 'utf8');
      if (rng.int(8) === 0) body = body.subarray(0, rng.int(body.length + 1));
      if (rng.int(8) === 0 && body.length) { body = Buffer.from(body); body[rng.int(body.length)] = 0x80 + rng.int(0x80); }
      const ndjson = rng.int(3) === 0, seed = Buffer.alloc(16, i & 0xff);
      const req = t.fast.transformRequest(body, ndjson, NOW, seed);
      const viaThread = await thread.transform(req);
      expect(plain(viaThread)).toEqual(plain(runTransform(req)));
      if (typeof viaThread === 'string') declined++; else took++;
    }
    expect(declined).toBeGreaterThan(RUNS / 10);
    expect(took).toBeGreaterThan(RUNS / 20);
  });

  it('compresses sealed blocks as the main thread does, plain, with a dictionary and with the small-row tuning', async () => {
    const lines = Buffer.from(demoBodies().slice(0, 6).map((b) => b.body.toString('utf8')).join('\n'));
    for (const codec of [new BlockCodec(null), new BlockCodec(lines.subarray(0, 16 * 1024)), new BlockCodec(lines.subarray(5000, 30_000), 4096, 1), new BlockCodec(lines.subarray(0, 16 * 1024), undefined, undefined, SMALL_ROW_TUNING)]) {
      for (const raw of [lines.subarray(0, 64 * 1024), lines.subarray(100, 5000), lines.subarray(70_000, 140_000)]) {
        const comp = await thread.compress(new Uint8Array(raw), codec);
        expect(comp.equals(codec.compress(raw))).toBe(true);
        expect(codec.decompress(comp).equals(raw)).toBe(true);
      }
    }
  });

  it('blocks asked for in one tick go in one message and come back each as the main thread compresses it', async () => {
    const lines = Buffer.from(demoBodies().slice(0, 6).map((b) => b.body.toString('utf8')).join('\n'));
    // New codecs: each one's dictionary travels with its first block, here inside the batch.
    const codecs = [new BlockCodec(null), new BlockCodec(lines.subarray(200, 20_000)), new BlockCodec(lines.subarray(300, 9000), undefined, undefined, SMALL_ROW_TUNING)];
    const raws = Array.from({ length: 12 }, (_, k) => lines.subarray(k * 9000, k * 9000 + 8000 + k * 700));
    const before = thread.posted;
    const comps = await Promise.all(raws.map((raw, k) => thread.compress(new Uint8Array(raw), codecs[k % 3]!)));
    expect(thread.posted - before).toBe(1);
    comps.forEach((comp, k) => {
      expect(comp.equals(codecs[k % 3]!.compress(raws[k]!))).toBe(true);
      expect(codecs[k % 3]!.decompress(comp).equals(raws[k]!)).toBe(true);
    });
  });

  it('a batch that cannot be posted rejects each of its blocks, and the thread goes on', async () => {
    const codec = new BlockCodec(null);
    // A codec whose settings cannot be cloned (a function among them) in the batch: it is not posted at all.
    const unclonable = new BlockCodec(null);
    (unclonable as unknown as { tuning: unknown }).tuning = { searchLog: () => 1 };
    const results = await Promise.allSettled([thread.compress(new Uint8Array(1000).fill(5), codec), thread.compress(new Uint8Array(500).fill(7), unclonable), thread.compress(new Uint8Array(800).fill(9), codec)]);
    for (const r of results) expect(r.status === 'rejected' && String(r.reason)).toMatch(/could not be posted to the ingest transform thread/);
    const raw = Buffer.alloc(3000, 'abc');
    expect((await thread.compress(new Uint8Array(raw), codec)).equals(codec.compress(raw))).toBe(true);
  });

  it('carries blocks in buffers that come back with the answers, and leaves what it was given as it was', async () => {
    const codec = new BlockCodec(null);
    const before = thread.carriersReused;
    for (let i = 0; i < 20; i++) {
      const slab = Buffer.alloc(70_000 + i * 100, `block ${i} `);
      const raw = slab.subarray(100, slab.length - 100); // a view of a bigger buffer, as a seal slab's blocks are
      const comp = await thread.compress(raw, codec);
      expect(comp.equals(codec.compress(raw))).toBe(true);
      expect(raw.byteLength).toBe(slab.length - 200); // not detached
      expect(raw.toString('latin1', 0, 8)).toBe(slab.toString('latin1', 100, 108));
    }
    // Each block after the first went in a buffer an earlier answer brought back.
    expect(thread.carriersReused - before).toBeGreaterThanOrEqual(19);
  });

  it('a store whose sealed blocks are compressed on the thread reads back every row', async () => {
    compressPendingNow();
    const edge = sourceByNameOrId('edge.logs.prod')!;
    const cfg = { ...defaultStoreConfig({}), segmentRows: 300, blockBytes: 8192 };
    const [onThread, here] = [new SourceStore(edge, cfg), new SourceStore(edge, cfg)];
    const bodies = demoBodies().filter((b) => b.source === 'edge.logs.prod');
    compressOffThread((raw, codec) => thread.compress(raw, codec));
    try {
      bodies.forEach((b, i) => onThread.ingestBytes(b.body, b.ndjson, NOW, { idSeed: Buffer.alloc(16, i) }));
      expect(compressorStats().pending).toBeGreaterThan(0);
      for (let i = 0; i < 400 && compressorStats().pending > 0; i++) await new Promise((r) => setTimeout(r, 5));
      expect(compressorStats().pending).toBe(0);
    } finally {
      compressOffThread(null);
    }
    bodies.forEach((b, i) => here.ingestBytes(b.body, b.ndjson, NOW, { idSeed: Buffer.alloc(16, i) }));
    compressPendingNow();
    const rows = (s: SourceStore): string[] => [...s.scan({ order: 'asc', hot: [] })].flatMap((b) => Array.from({ length: b.n }, (_, k) => b.rows[k]!.json(b.idx[k]!)));
    expect(rows(onThread).length).toBeGreaterThan(500);
    expect(rows(onThread)).toEqual(rows(here));
    expect(onThread.stats().bytes).toBe(here.stats().bytes);
  });

  it('wakes a compressionCaughtUp waiter when the thread answers the last block (not at its time limit)', async () => {
    compressPendingNow();
    const edge = sourceByNameOrId('edge.logs.prod')!;
    const store = new SourceStore(edge, { ...defaultStoreConfig({}), segmentRows: 300, blockBytes: 8192 });
    const bodies = demoBodies().filter((b) => b.source === 'edge.logs.prod');
    compressOffThread((raw, codec) => thread.compress(raw, codec));
    try {
      bodies.forEach((b, i) => store.ingestBytes(b.body, b.ndjson, NOW, { idSeed: Buffer.alloc(16, i) }));
      expect(compressorStats().pending).toBeGreaterThan(0);
      // A waiter woken only by main-thread slices would sleep out its 60 s limit: the race says which.
      const woken = await Promise.race([compressionCaughtUp(60_000).then(() => 'caught up'), new Promise((r) => setTimeout(() => r('still waiting'), 20_000))]);
      expect(woken).toBe('caught up');
      expect(compressorStats().pending).toBe(0);
    } finally {
      compressOffThread(null);
    }
  }, 40_000);

  it('fails to start loudly when the thread cannot load (as when the addon is missing in it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringql-bad-thread-'));
    const entry = join(dir, 'broken-worker.mjs');
    writeFileSync(entry, "throw new Error('the native ingest addon (src/native) failed to load: gone');\n");
    await expect(TransformThread.start(() => {}, pathToFileURL(entry))).rejects.toThrow(/transform thread did not start: .*native ingest addon .*failed to load/);
  });
});
