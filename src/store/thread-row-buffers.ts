// The transform thread's row buffers: a big body's rows are written into one and transferred to the main
// thread, whose source row pool (row-pool.ts) posts it back once the seal that copied its rows is done;
// the next bodies are then written into pages already faulted in.

import { POOL_MIN_BYTES, ROW_POOL_IDLE_MS, rowsReserve } from './row-pool.ts';

/** Spare bytes kept at most (the newest kept). */
const MAX_SPARE_BYTES = 16 * 1024 * 1024;
/** Spares at most this many times the bytes a body needs are handed out. */
const MAX_OVERSIZE = 2;
const ROUND = 64 * 1024;

export class ThreadRowBuffers {
  private spare: Buffer[] = [];
  private bytes = 0;
  private idle: ReturnType<typeof setTimeout> | null = null;
  private takes = 0;
  /** Buffers handed out again (tests). */
  reused = 0;

  /** The buffer a body of `bodyBytes` has its rows written into; null for a body too small to pool. */
  take(bodyBytes: number): Buffer | null {
    if (bodyBytes < POOL_MIN_BYTES) return null;
    this.takes++;
    const need = rowsReserve(bodyBytes);
    let best = -1;
    for (let i = 0; i < this.spare.length; i++) {
      const len = this.spare[i]!.length;
      if (len >= need && len <= MAX_OVERSIZE * need && (best < 0 || len < this.spare[best]!.length)) best = i;
    }
    if (best < 0) return Buffer.allocUnsafeSlow(Math.ceil(need / ROUND) * ROUND);
    const b = this.spare.splice(best, 1)[0]!;
    this.bytes -= b.length;
    this.reused++;
    return b;
  }

  /** Buffers back (from the main thread, or unused here): kept as spares within the bound. */
  given(bufs: readonly Uint8Array[]): void {
    for (const v of bufs) {
      if (v.byteLength < POOL_MIN_BYTES || v.byteLength > MAX_SPARE_BYTES) continue;
      this.spare.push(Buffer.from(v.buffer, v.byteOffset, v.byteLength));
      this.bytes += v.byteLength;
    }
    while (this.bytes > MAX_SPARE_BYTES) this.bytes -= this.spare.shift()!.length;
    if (this.spare.length > 0) this.armIdle();
  }

  get spareBytes(): number {
    return this.bytes;
  }

  /** After ROW_POOL_IDLE_MS with no take, the spares go. */
  private armIdle(): void {
    if (this.idle !== null) return;
    const takes = this.takes;
    this.idle = setTimeout(() => {
      this.idle = null;
      if (this.takes === takes) {
        this.spare = [];
        this.bytes = 0;
      } else if (this.spare.length > 0) this.armIdle();
    }, ROW_POOL_IDLE_MS);
    this.idle.unref();
  }
}
