// Row buffers through the transform thread (thread-row-buffers.ts, row-pool.ts): a big body's rows come
// back in one of the thread's buffers, the source's pool posts it back once its seal copied the rows, and
// the thread writes later bodies into it; the stores must hold what the main thread's own transforms store.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../src/core/time.ts';
import { smallEdgeEvent } from '../../bench/ingest-corpus.ts';
import { TransformThread } from '../../src/store/transform-thread.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';
import { snapshot, twinStores } from './byte-ingest-diff.ts';

const NOW = parseTimestamp('2025-01-15T12:00:00Z')!;

let thread: TransformThread;
beforeAll(async () => { thread = await TransformThread.start(); });
afterAll(async () => { await thread.close(); });

function body(k: number, events: number): Buffer {
  const lines = Array.from({ length: events }, (_, i) => smallEdgeEvent(k * 1000 + i, NOW).replace('"event_message":"', `"event_message":"b${k} `));
  return Buffer.from(`{"batch":[${lines.join(',')}]}`);
}

describe('row buffers of the transform thread', () => {
  it('go back to the thread after their seal, and the stores hold what the main thread stores', async () => {
    const t = twinStores('edge.logs.prod', { segmentRows: 300 });
    let pooled = 0;
    // A few bodies in flight at a time, as the HTTP path has them, over many seals.
    for (let round = 0; round < 8; round++) {
      const ks = [0, 1, 2].map((j) => round * 3 + j);
      const seeds = ks.map((k) => Buffer.alloc(16, k));
      const answers = ks.map((k, j) => thread.transform(t.fast.transformRequest(body(k, 140 + (k % 4) * 15), false, NOW, seeds[j]!)));
      for (let j = 0; j < ks.length; j++) {
        const b = await answers[j]!;
        if (typeof b !== 'string' && b.pooled) pooled++;
        const got = t.fast.ingestTransformed(b, NOW, typeof b !== 'string' && b.pooled ? { rowsHome: thread.rowsHome } : {});
        expect(got).toEqual(t.ref.ingestBytes(body(ks[j]!, 140 + (ks[j]! % 4) * 15), false, NOW, { idSeed: seeds[j]! }));
      }
    }
    expect(pooled).toBe(24);
    expect(thread.returned).toBeGreaterThan(8);
    compressPendingNow(); // both stores' sealed blocks compressed: their byte counts then compare
    expect(snapshot(t.fast)).toEqual(snapshot(t.ref));
  });

  it('buffers waiting to go back are let go when no body follows within a second', async () => {
    const t = twinStores('edge.logs.prod', { segmentRows: 150 });
    for (let k = 0; k < 4; k++) {
      const b = await thread.transform(t.fast.transformRequest(body(100 + k, 150), false, NOW, Buffer.alloc(16, k)));
      expect(typeof b !== 'string' && b.pooled).toBe(true);
      t.fast.ingestTransformed(b, NOW, { rowsHome: thread.rowsHome }); // each fills a segment: sealed, its buffer free
    }
    expect(thread.waitingBackBytes).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 2200));
    expect(thread.waitingBackBytes).toBe(0);
  });

  it('small bodies are not pooled', async () => {
    const t = twinStores('edge.logs.prod');
    const b = await thread.transform(t.fast.transformRequest(body(0, 20), false, NOW, Buffer.alloc(16)));
    expect(typeof b !== 'string' && b.pooled).toBeFalsy();
  });
});
