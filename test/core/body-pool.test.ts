// core/body-pool.ts: a body's memory is reused only after it was given back, only for a close fit, and
// only when the buffer owns its whole memory; views, tiny and huge buffers are never kept.

import { describe, expect, it } from 'vitest';
import { bodyPoolStats, clearBodyPool, MAX_FREE_BUFFERS, MAX_POOLED_BYTES, recycleBody, takeBodyBuffer } from '../../src/core/body-pool.ts';

describe('body pool', () => {
  it('hands out exactly n bytes, and fresh memory until a body is given back', () => {
    const a = takeBodyBuffer(200_000);
    const b = takeBodyBuffer(200_000);
    expect(a.length).toBe(200_000);
    expect(a.buffer).not.toBe(b.buffer);
    recycleBody(a);
    const c = takeBodyBuffer(199_000);
    expect(c.buffer).toBe(a.buffer);
    expect(c.length).toBe(199_000);
    // Taken again: not in the free list any more.
    expect(takeBodyBuffer(199_000).buffer).not.toBe(a.buffer);
  });

  it('reuses only a close fit: a much larger buffer is not spent on a small body, a smaller one cannot hold it', () => {
    const big = takeBodyBuffer(1_000_000);
    recycleBody(big);
    expect(takeBodyBuffer(100_000).buffer).not.toBe(big.buffer);
    expect(takeBodyBuffer(1_100_000).buffer).not.toBe(big.buffer);
    expect(takeBodyBuffer(950_000).buffer).toBe(big.buffer);
  });

  it('keeps neither small bodies, nor huge ones, nor views into shared memory, nor the same memory twice', () => {
    const before = bodyPoolStats().buffers;
    recycleBody(Buffer.allocUnsafe(1000));
    recycleBody(Buffer.allocUnsafeSlow(MAX_POOLED_BYTES + 1));
    const shared = Buffer.allocUnsafeSlow(300_000);
    recycleBody(shared.subarray(100, 200_100));
    expect(bodyPoolStats().buffers).toBe(before);
    const own = Buffer.allocUnsafeSlow(300_000);
    recycleBody(own);
    recycleBody(own);
    expect(bodyPoolStats().buffers).toBe(before + 1);
    expect(takeBodyBuffer(299_000).buffer).toBe(own.buffer);
  });

  it('holds at most MAX_FREE_BUFFERS, keeping the larger ones', () => {
    clearBodyPool();
    const sizes = Array.from({ length: MAX_FREE_BUFFERS + 3 }, (_, i) => 100_000 + i * 10_000);
    const bufs = sizes.map((n) => Buffer.allocUnsafeSlow(n));
    for (const b of bufs) recycleBody(b);
    const s = bodyPoolStats();
    expect(s.buffers).toBe(MAX_FREE_BUFFERS);
    const kept = sizes.slice(3).reduce((x, y) => x + y, 0);
    expect(s.bytes).toBe(kept);
    // The three smallest went: a body only they could hold closely gets fresh memory.
    const small = takeBodyBuffer(95_000);
    expect(bufs.some((b) => b.buffer === small.buffer)).toBe(false);
    expect(takeBodyBuffer(bufs.at(-1)!.length).buffer).toBe(bufs.at(-1)!.buffer);
  });
});
