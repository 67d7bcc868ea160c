// A transformed batch made transferable between threads: the addon hands its rows over as external memory,
// which postMessage cannot detach and so copies twice (into the message, then out on the main thread), unless
// the transform copied them into a Buffer of their own (copyRows).

import type { NativeBatch } from './native-ingest.ts';

/**
 * `b` with its rows in a plain (detachable) ArrayBuffer, and the buffers to transfer, each once. `rowsOwn`: the
 * rows already are such a Buffer (a transform with copyRows), which goes as it is.
 */
export function transferableBatch(b: NativeBatch, rowsOwn = false): { batch: NativeBatch; transfer: ArrayBuffer[] } {
  // One copy here, on the transform thread, instead of two copies of which one is on the receiving (main) thread.
  let rows = b.rows;
  if (!rowsOwn) {
    rows = Buffer.allocUnsafeSlow(b.rows.byteLength);
    b.rows.copy(rows, 0, 0, b.rows.byteLength);
  }
  const batch: NativeBatch = { ...b, rows };
  const set = new Set<ArrayBuffer>();
  for (const v of [batch.rows, batch.meta, batch.strs, batch.strEnds, batch.descs, batch.descEnds]) if (v.byteLength > 0) set.add(v.buffer as ArrayBuffer);
  return { batch, transfer: [...set] };
}
