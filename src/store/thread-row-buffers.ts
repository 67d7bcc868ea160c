// The transform thread's row buffers: a big body's rows are written into one and transferred to the main
// thread, whose source row pool (row-pool.ts) posts it back once the seal that copied its rows is done;
// the next bodies are then written into pages already faulted in.

import { POOL_MIN_BYTES, rowBuffer } from './row-pool.ts';
import { SpareBuffers } from './spare-buffers.ts';

/** Spare bytes kept at most (the newest kept), for every source's bodies together. */
const MAX_SPARE_BYTES = 16 * 1024 * 1024;

export class ThreadRowBuffers {
  private readonly spare = new SpareBuffers(MAX_SPARE_BYTES, POOL_MIN_BYTES);

  /** The buffer a body of `bodyBytes` has its rows written into; null for a body too small to pool. */
  take(bodyBytes: number): Buffer | null {
    if (bodyBytes < POOL_MIN_BYTES) return null;
    return rowBuffer(this.spare, bodyBytes);
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
