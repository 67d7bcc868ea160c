// Reusable memory for large response bodies (issue 18): a computed answer nobody keeps is written into
// a buffer taken here and given back once its bytes went to the socket, so each request does not fault
// in hundreds of KiB of fresh pages (that cost more than copying the rows into them).

import { SizedFreeList } from './sized-free-list.ts';

/** Bodies smaller than this come from Node's allocator as before (its 8 KiB slab or a small malloc). */
export const MIN_POOLED_BYTES = 64 * 1024;
/** Buffers larger than this are never kept (a streamed answer's pieces are at most a few MiB). */
export const MAX_POOLED_BYTES = 4 * 1024 * 1024;
/** How many given-back buffers are kept at most. */
export const MAX_FREE_BUFFERS = 8;

const free = new SizedFreeList<ArrayBuffer>(MAX_FREE_BUFFERS);
let reused = 0;

/**
 * `n` writable bytes: a given-back buffer that fits closely (at most an eighth plus 16 KiB larger, so a
 * body kept by a cache wastes little), else a fresh one of exactly `n` bytes.
 */
export function takeBodyBuffer(n: number): Buffer {
  if (n >= MIN_POOLED_BYTES && n <= MAX_POOLED_BYTES) {
    const ab = free.take(n, n + (n >>> 3) + 16 * 1024);
    if (ab !== undefined) {
      reused++;
      return Buffer.from(ab, 0, n);
    }
  }
  return Buffer.allocUnsafe(n);
}

/**
 * Gives back a body whose bytes were handed over (uWS copies what it writes) and that nothing else
 * holds: its memory may be the next body. Only a buffer owning its whole memory is kept; others are left to GC.
 */
export function recycleBody(body: Buffer): void {
  const ab = body.buffer;
  if (!(ab instanceof ArrayBuffer) || body.byteOffset !== 0 || ab.byteLength < MIN_POOLED_BYTES || ab.byteLength > MAX_POOLED_BYTES) return;
  free.keep(ab);
}

/** Forgets every kept buffer (tests). */
export function clearBodyPool(): void {
  free.clear();
}

/** Buffers kept now, their bytes, and how many bodies reused one (tests, metrics). */
export function bodyPoolStats(): { buffers: number; bytes: number; reused: number } {
  return { buffers: free.count, bytes: free.bytes, reused };
}
