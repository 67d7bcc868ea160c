// A transformed batch crosses from the transform thread to the main thread without a copy: every
// buffer of transferableBatch's result detaches when transferred, and the bytes arrive unchanged.

import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { runTransform } from '../../src/store/byte-batch.ts';
import { transferableBatch } from '../../src/store/transfer-batch.ts';
import type { NativeBatch } from '../../src/store/native-ingest.ts';

function batch(): NativeBatch {
  const s = new Store({ ...defaultStoreConfig({}), retentionUs: 1e18 });
  const body = Buffer.from(JSON.stringify({ batch: [{ message: 'a', project: 'p1' }, { event_message: 'é b', metadata: { x: 1 } }] }));
  const b = runTransform(s.source('edge.logs.prod')!.transformRequest(body, false, 1_700_000_000_000_000, randomBytes(16)));
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
});
