// SpareBuffers (spare-buffers.ts): the buffers kept for reuse by the row pools and the transform thread's
// block carriers — the best fit within 2x handed out, the byte bound, and all of them gone after an idle second.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { SpareBuffers, roundUp } from '../../src/store/spare-buffers.ts';
import { SPARE_IDLE_MS } from '../../src/core/idle-drop.ts';

afterEach(() => { vi.useRealTimers(); });

describe('spare buffers', () => {
  it('hands out the smallest spare that fits within twice the need, once', () => {
    const s = new SpareBuffers(1 << 20);
    const [a, b, c] = [Buffer.alloc(1000), Buffer.alloc(3000), Buffer.alloc(1500)];
    for (const x of [a, b, c]) s.give(x);
    expect(s.bytes).toBe(5500);
    expect(s.take(900)).toBe(a); // 1000 and 1500 fit, 1000 is smaller
    expect(s.take(900)).toBe(c);
    expect(s.take(900)).toBeNull(); // 3000 is more than twice 900
    expect(s.take(2000)).toBe(b);
    expect(s.reused).toBe(3);
    expect(s.bytes).toBe(0);
  });

  it('keeps at most its bound (the newest), and nothing outside its sizes', () => {
    const s = new SpareBuffers(10_000, 500);
    s.give(Buffer.alloc(100)); // under minBytes
    s.give(Buffer.alloc(20_000)); // over the bound
    expect(s.bytes).toBe(0);
    const kept = Array.from({ length: 5 }, () => Buffer.alloc(3000));
    for (const k of kept) s.give(k);
    expect(s.bytes).toBe(9000);
    expect(s.take(3000)).toBe(kept[2]); // the two oldest went
    s.drop();
    expect(s.bytes).toBe(0);
  });

  it('drops every spare after an idle second, and keeps them while takes go on', () => {
    vi.useFakeTimers();
    const s = new SpareBuffers(1 << 20);
    s.give(Buffer.alloc(1000));
    s.give(Buffer.alloc(1000));
    vi.advanceTimersByTime(SPARE_IDLE_MS / 2);
    s.take(1000);
    vi.advanceTimersByTime(SPARE_IDLE_MS);
    expect(s.bytes).toBe(1000); // a take in that second: kept
    vi.advanceTimersByTime(SPARE_IDLE_MS);
    expect(s.bytes).toBe(0);
  });

  it('rounds sizes up to whole units', () => {
    expect([roundUp(0, 64), roundUp(1, 64), roundUp(64, 64), roundUp(65, 64)]).toEqual([64, 64, 64, 128]);
  });
});
