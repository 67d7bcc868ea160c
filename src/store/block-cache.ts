// A small LRU of decoded row blocks, shared by every source and bounded in bytes, so rows queries
// keep reading (the newest of a project, a sandbox scan walking a block) are decompressed once.

import type { Block } from './row-blocks.ts';

/** Default bound of the decoded-block cache. */
export const DEFAULT_BLOCK_CACHE_BYTES = 32 * 1024 * 1024;

let maxBytes = DEFAULT_BLOCK_CACHE_BYTES;
let bytes = 0;
/** Insertion order is recency: a hit moves its block to the end. */
const cache = new Map<Block, Buffer>();
let last: Block | null = null;
let lastBuf: Buffer | null = null;
let decodes = 0;

/** Block b's raw row bytes, decoded at most once while it stays cached. */
export function decodedBlock(b: Block): Buffer {
  if (b.raw !== null) return b.raw; // not compressed yet
  if (b === last) return lastBuf!;
  let buf = cache.get(b);
  if (buf !== undefined) {
    cache.delete(b);
    cache.set(b, buf);
  } else {
    buf = b.codec.decompress(b.frame());
    decodes++;
    cache.set(b, buf);
    bytes += buf.length;
    trim();
  }
  last = b;
  lastBuf = buf;
  return buf;
}

function trim(): void {
  for (const [k, v] of cache) {
    if (bytes <= maxBytes || cache.size <= 1) break;
    cache.delete(k);
    bytes -= v.length;
  }
}

/** Sets the cache bound (bytes); shrinks the cache at once. */
export function setBlockCacheBytes(n: number): void {
  maxBytes = Math.max(0, n);
  trim();
}

export function blockCacheStats(): { bytes: number; maxBytes: number; blocks: number; decodes: number } {
  return { bytes, maxBytes, blocks: cache.size, decodes };
}

/** Forgets every decoded block (tests; and a shrinking memory budget). */
export function clearBlockCache(): void {
  cache.clear();
  bytes = 0;
  last = null;
  lastBuf = null;
}
