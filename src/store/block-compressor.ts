// Compresses sealed row blocks off the request path: sealing makes raw blocks and queues them here;
// a setImmediate loop compresses them in slices of ~2 ms between other work, oldest first.

import type { Block } from './row-blocks.ts';

/** Time one slice of compression may take before yielding to the event loop. */
export const SLICE_MS = 2;

const queue: Block[] = [];
let head = 0;
let scheduled = false;
let compressed = 0;

export function enqueueCompression(b: Block): void {
  queue.push(b);
  if (!scheduled) {
    scheduled = true;
    setImmediate(slice);
  }
}

function slice(): void {
  scheduled = false;
  const until = performance.now() + SLICE_MS;
  while (head < queue.length && performance.now() < until) compressOne();
  compact();
  if (head < queue.length) {
    scheduled = true;
    setImmediate(slice);
  }
}

function compressOne(): void {
  const b = queue[head]!;
  queue[head++] = undefined as unknown as Block; // let an evicted block go before the queue drains
  b.compress();
  compressed++;
}

function compact(): void {
  if (head > 1024 && head * 2 > queue.length) {
    queue.splice(0, head);
    head = 0;
  }
}

/** Compresses every queued block now (tests and benchmarks that measure the settled store). */
export function compressPendingNow(): void {
  while (head < queue.length) compressOne();
  queue.length = 0;
  head = 0;
}

export function compressorStats(): { pending: number; compressed: number } {
  return { pending: queue.length - head, compressed };
}
