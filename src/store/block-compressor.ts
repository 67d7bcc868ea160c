// Compresses sealed row blocks off the request path: sealing makes raw blocks and queues them here;
// a setImmediate loop compresses them in slices of ~2 ms between other work, oldest first. When
// ingest outpaces the slices, a slice runs on until the raw backlog is under MAX_PENDING_BYTES, so
// raw blocks (and the heap the allocator keeps after freeing them) stay bounded.

import type { Block } from './row-blocks.ts';
import type { BlockCodec } from './block-codec.ts';

/** Time one slice of compression may take before yielding to the event loop. */
export const SLICE_MS = 2;
/** Raw bytes queued before a slice keeps compressing past its time (about one seal of big events). */
export const MAX_PENDING_BYTES = 16 * 1024 * 1024;

/**
 * Compresses a block's raw bytes with its codec's settings elsewhere (the transform thread); resolves with the
 * frame. `raw` is not given over: it may be a view of a slab that is written again once the block is compressed.
 */
export type OffThreadCompress = (raw: Uint8Array, codec: BlockCodec) => Promise<Buffer>;

let offThread: OffThreadCompress | null = null;
/** Blocks handed to the other thread and not answered yet. */
const inFlight = new Set<Block>();

/**
 * From now on queued blocks are compressed on another thread (main.ts attaches the transform thread),
 * except while the raw backlog passes MAX_PENDING_BYTES: then this thread compresses too, as before.
 */
export function compressOffThread(f: OffThreadCompress | null): void {
  offThread = f;
}

const queue: Block[] = [];
let head = 0;
let scheduled = false;
let compressed = 0;
let pendingBytes = 0;
let enqueued = 0;
/** Callers of compressionCaughtUp, each waiting for `compressed` to reach its target. */
let waiters: { target: number; resolve: () => void }[] = [];

export function enqueueCompression(b: Block): void {
  queue.push(b);
  enqueued++;
  pendingBytes += b.rawLen;
  if (!scheduled) {
    scheduled = true;
    setImmediate(slice);
  }
}

function slice(): void {
  scheduled = false;
  if (offThread !== null) handOver(offThread);
  const until = performance.now() + SLICE_MS;
  while (head < queue.length && (pendingBytes > MAX_PENDING_BYTES || performance.now() < until)) compressOne();
  compact();
  wakeWaiters();
  if (head < queue.length) {
    scheduled = true;
    setImmediate(slice);
  }
}

/** Hands queued blocks to the other thread while the raw bytes in flight stay under MAX_PENDING_BYTES. */
function handOver(f: OffThreadCompress): void {
  let flying = 0;
  for (const b of inFlight) flying += b.rawLen;
  while (head < queue.length && flying + queue[head]!.rawLen <= MAX_PENDING_BYTES) {
    const b = queue[head]!;
    queue[head++] = undefined as unknown as Block;
    const raw = b.raw;
    // Compressed meanwhile (a checkpoint does it itself): done, as compressOne counts it.
    if (raw === null) { pendingBytes -= b.rawLen; compressed++; continue; }
    flying += b.rawLen;
    inFlight.add(b);
    // The raw view shares its build's slab: f copies what it sends (the slab is written again only once
    // every block of it is compressed, so the view holds until the answer).
    f(raw, b.codec).then(
      // Each answer may be the one a compressionCaughtUp caller waits for (no slice may run after it).
      (comp) => { if (inFlight.delete(b)) { pendingBytes -= b.rawLen; b.adopt(comp); compressed++; wakeWaiters(); } },
      () => { if (inFlight.delete(b)) { pendingBytes -= b.rawLen; b.compress(); compressed++; wakeWaiters(); } },
    );
  }
}

function compressOne(): void {
  const b = queue[head]!;
  queue[head++] = undefined as unknown as Block; // let an evicted block go before the queue drains
  pendingBytes -= b.rawLen;
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
  // Blocks on the other thread are compressed here too; their late answers are then ignored.
  for (const b of inFlight) { b.compress(); compressed++; }
  inFlight.clear();
  queue.length = 0;
  pendingBytes = 0;
  head = 0;
  wakeWaiters();
}

/**
 * Resolves once every block queued now has been compressed by the slices, or after `maxWaitMs` (a
 * checkpoint waits for this before its synchronous snapshot, which would otherwise compress the backlog
 * in one go; whatever is left then is compressed by the snapshot, as before).
 */
export function compressionCaughtUp(maxWaitMs = 5000): Promise<void> {
  if (compressed >= enqueued) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, maxWaitMs);
    timer.unref();
    waiters.push({ target: enqueued, resolve: () => { clearTimeout(timer); resolve(); } });
  });
}

function wakeWaiters(): void {
  if (!waiters.length) return;
  const still = waiters.filter((w) => compressed < w.target);
  for (const w of waiters) if (compressed >= w.target) w.resolve();
  waiters = still;
}

export function compressorStats(): { pending: number; pendingBytes: number; compressed: number } {
  return { pending: queue.length - head + inFlight.size, pendingBytes, compressed };
}
