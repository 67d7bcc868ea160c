// A transformed batch crosses from the transform thread to the main thread without a copy: every
// buffer of transferableBatch's result detaches when transferred, and the bytes arrive unchanged.

import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { runTransform } from '../../src/store/byte-batch.ts';
import { transferableBatch } from '../../src/store/transfer-batch.ts';
import type { NativeBatch } from '../../src/store/native-ingest.ts';

function batch(copyRows = false, events: unknown[] = [{ message: 'a', project: 'p1' }, { event_message: 'é b', metadata: { x: 1 } }], seed = randomBytes(16)): NativeBatch {
  const s = new Store({ ...defaultStoreConfig({}), retentionUs: 1e18 });
  const body = Buffer.from(JSON.stringify({ batch: events }));
  const b = runTransform({ ...s.source('edge.logs.prod')!.transformRequest(body, false, 1_700_000_000_000_000, seed), copyRows });
  if (typeof b === 'string') throw new Error(b);
  return b;
}

/** Posts `value` over a MessageChannel with `transfer` and reads it back on the other port. */
function roundTrip<T>(value: T, transfer: ArrayBuffer[]): T {
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(value, transfer);
  const got = receiveMessageOnPort(port2)!.message as T;
  port1.close();
  return got;
}

describe('transferableBatch', () => {
  it('the addon rows are external memory: posting them with a transfer list copies instead of detaching', () => {
    const b = batch();
    const len = b.rows.byteLength;
    roundTrip(b.rows, [b.rows.buffer as ArrayBuffer]);
    expect(b.rows.byteLength).toBe(len);
  });

  it('every buffer of the batch it gives detaches on transfer, and the bytes arrive unchanged', () => {
    const b = batch();
    const rows = Buffer.from(b.rows), meta = Float64Array.from(b.meta);
    const { batch: t, transfer } = transferableBatch(b);
    const got = roundTrip(t, transfer);
    for (const v of [t.rows, t.meta, t.strs, t.strEnds, t.descs, t.descEnds]) expect(v.byteLength).toBe(0);
    expect(Buffer.from(got.rows.buffer, got.rows.byteOffset, got.rows.byteLength).equals(rows)).toBe(true);
    expect([...got.meta]).toEqual([...meta]);
    expect(got.n).toBe(2);
  });

  it('rows a transform copied out (copyRows) detach as they are, and equal the external rows, body after body', () => {
    // Bodies of different sizes through the thread's kept row buffer: small, big (it grows), small again.
    const sizes = [3, 4000, 2, 900];
    for (const [k, n] of sizes.entries()) {
      const events = Array.from({ length: n }, (_, i) => ({ event_message: `m${k}-${i} ${'é'.repeat(i % 7)}`, project: `p${i % 3}`, metadata: { i, k } }));
      const seed = randomBytes(16);
      const plain = batch(false, events, seed), copied = batch(true, events, seed);
      const want = Buffer.from(plain.rows);
      expect(copied.rows.equals(want)).toBe(true);
      expect(copied.rows.byteOffset).toBe(0);
      expect(copied.rows.buffer.byteLength).toBe(copied.rows.byteLength);
      const { batch: t, transfer } = transferableBatch(copied, true);
      expect(t.rows).toBe(copied.rows); // no copy made
      const got = roundTrip(t, transfer);
      expect(copied.rows.byteLength).toBe(0); // detached: transferred, not copied
      expect(Buffer.from(got.rows.buffer, got.rows.byteOffset, got.rows.byteLength).equals(want)).toBe(true);
      expect([...got.meta]).toEqual([...plain.meta]);
    }
  });
});
