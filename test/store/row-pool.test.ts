// Row buffers used again (row-pool.ts): big bodies' rows written into the source's buffers, given back at
// the seal that copied them; the stored rows must stay the reference path's while buffers are reused, and a
// paused reader's views must never be written over.

import { describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../src/core/time.ts';
import { smallEdgeEvent } from '../../bench/ingest-corpus.ts';
import { pinReads } from '../../src/store/read-pins.ts';
import { RowPool, rowsReserve } from '../../src/store/row-pool.ts';
import type { SourceStore } from '../../src/store/source-store.ts';
import type { SegmentSet } from '../../src/store/segment-set.ts';
import { ingestBoth, snapshot, twinStores } from './byte-ingest-diff.ts';

const NOW = parseTimestamp('2025-01-15T12:00:00Z')!;

/** A JSON body of `events` ~600 B edge events, the k-th body's own (its messages carry k). */
function body(k: number, events: number): Buffer {
  const lines = Array.from({ length: events }, (_, i) => smallEdgeEvent(k * 1000 + i, NOW).replace('"event_message":"', `"event_message":"b${k} `));
  return Buffer.from(`{"batch":[${lines.join(',')}]}`);
}

function rowsOf(s: SourceStore): SegmentSet {
  // The segment set is private; the test reads its pool and open segment.
  return (s as unknown as { rows: SegmentSet }).rows;
}

describe('row pool', () => {
  it('hands a buffer out again only once every reference is dropped, and keeps spares within its bound', () => {
    const pool = new RowPool(3 * 1024 * 1024);
    const a = pool.take(100_000);
    expect(a.length).toBeGreaterThanOrEqual(rowsReserve(100_000));
    pool.hold(a.subarray(0, 10)); // an open segment's reference
    pool.drop(a); // the taker's
    const b = pool.take(100_000);
    expect(b.buffer).not.toBe(a.buffer);
    expect(pool.reused).toBe(0);
    pool.released([a.subarray(5, 9)]); // the seal's
    expect(pool.spareBytes).toBe(a.length);
    const c = pool.take(90_000);
    expect(c.buffer).toBe(a.buffer);
    expect(pool.reused).toBe(1);
    // A spare far bigger than asked is not handed out; spares past the bound go oldest first.
    pool.drop(c);
    expect(pool.take(1000).buffer).not.toBe(a.buffer);
    const big = [pool.take(1_000_000), pool.take(1_000_000), pool.take(1_000_000)];
    for (const x of big) pool.drop(x);
    expect(pool.spareBytes).toBeLessThanOrEqual(3 * 1024 * 1024);
    pool.dropSpares();
    expect(pool.spareBytes).toBe(0);
    // Buffers not of this pool are ignored.
    pool.drop(Buffer.alloc(10));
    expect(pool.spareBytes).toBe(0);
  });

  it('adopts a buffer made elsewhere once, and sends it home when free', () => {
    const pool = new RowPool();
    const home: Buffer[] = [];
    const made = Buffer.allocUnsafeSlow(100_000);
    expect(pool.adopt(made.subarray(0, 10), (b) => home.push(b))).toBe(true);
    expect(pool.adopt(made, (b) => home.push(b))).toBe(false); // known already: no second reference
    pool.hold(made);
    pool.drop(made);
    expect(home).toEqual([]);
    pool.released([made]);
    expect(home.length).toBe(1);
    expect(home[0]!.buffer).toBe(made.buffer);
    expect(pool.spareBytes).toBe(0); // home, not a spare
  });

  it('a seal while a reader is paused never gives its buffers back', () => {
    const pool = new RowPool();
    const a = pool.take(100_000);
    pool.hold(a);
    const unpin = pinReads();
    pool.released([a]);
    unpin();
    pool.drop(a);
    expect(pool.spareBytes).toBe(0);
    expect(pool.take(100_000).buffer).not.toBe(a.buffer);
  });

  it('stores what the reference path stores while its buffers are reused across many seals', () => {
    const t = twinStores('edge.logs.prod', { segmentRows: 300 });
    for (let k = 0; k < 24; k++) {
      const r = ingestBoth(t, body(k, 130 + (k % 5) * 20), 'application/json', NOW);
      expect(r.fast).toEqual(r.ref);
    }
    expect(t.took).toBe(24);
    expect(rowsOf(t.fast).rowPool.reused).toBeGreaterThan(10);
    expect(snapshot(t.fast)).toEqual(snapshot(t.ref));
  });

  it('stores rows that outgrow the buffer they were given (tiny events without ids or timestamps)', () => {
    const t = twinStores('edge.logs.prod', { segmentRows: 3000 });
    for (let k = 0; k < 4; k++) {
      const b = Buffer.from(`{"batch":[${Array.from({ length: 4000 }, (_, i) => `{"message":"m${k}.${i}"}`).join(',')}]}`);
      expect(b.length).toBeGreaterThan(64 * 1024);
      const r = ingestBoth(t, b, 'application/json', NOW);
      expect(r.fast).toEqual(r.ref);
    }
    expect(t.took).toBe(4);
    expect(snapshot(t.fast)).toEqual(snapshot(t.ref));
  });

  it('leaves the rows a paused reader holds as they were while later bodies are stored', () => {
    const t = twinStores('edge.logs.prod', { segmentRows: 300 });
    for (let k = 0; k < 3; k++) t.fast.ingestBytes(body(k, 150), false, NOW);
    const open = rowsOf(t.fast).open;
    const held = Array.from({ length: open.n }, (_, r) => open.jsonBytes(r));
    const text = held.map((b) => b.toString());
    const unpin = pinReads();
    for (let k = 3; k < 8; k++) t.fast.ingestBytes(body(k, 150), false, NOW);
    unpin();
    const reusedBefore = rowsOf(t.fast).rowPool.reused;
    for (let k = 8; k < 20; k++) t.fast.ingestBytes(body(k, 150), false, NOW);
    expect(rowsOf(t.fast).rowPool.reused).toBeGreaterThan(reusedBefore); // reuse went on after the pause
    expect(held.map((b) => b.toString())).toEqual(text);
  });
});
