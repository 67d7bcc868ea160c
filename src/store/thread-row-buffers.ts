// The transform thread's row buffers: a big body's rows are written into one and transferred to the main
// thread, whose source row pool (row-pool.ts) posts it back once the seal that copied its rows is done;
// the next bodies are then written into pages already faulted in.

import { POOL_MIN_BYTES, ROW_BUFFER_ROUND, rowsReserve } from './row-pool.ts';
import { SpareBuffers, roundUp } from './spare-buffers.ts';

/** Spare bytes kept at most (the newest kept), for every source's bodies together. */
const MAX_SPARE_BYTES = 16 * 1024 * 1024;

export class ThreadRowBuffers {
  private readonly spare = new SpareBuffers(MAX_SPARE_BYTES, POOL_MIN_BYTES);

  /** The buffer a body of `bodyBytes` has its rows written into; null for a body too small to pool. */
  take(bodyBytes: number): Buffer | null {
    if (bodyBytes < POOL_MIN_BYTES) return null;
    const need = rowsReserve(bodyBytes);
    return this.spare.take(need) ?? Buffer.allocUnsafeSlow(roundUp(need, ROW_BUFFER_ROUND));
  }

  /** Buffers back (from the main thread, or unused here): kept as spares within the bound. */
  given(bufs: readonly Uint8Array[]): void {
    for (const v of bufs) this.spare.give(Buffer.from(v.buffer, v.byteOffset, v.byteLength));
  }

  /** Buffers handed out again (tests). */
  get reused(): number {
    return this.spare.reused;
  }
}
