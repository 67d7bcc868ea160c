// The shared slots large ingest bodies are read into (body-slots.ts): a slot is never handed out again
// while the body in it is held, comes back once given back (only once), and bodies outside the range get none.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SPARE_IDLE_MS } from '../../src/core/idle-drop.ts';
import { MAX_FREE_BYTES, MAX_FREE_SLOTS, MAX_SLOT_BYTES, MIN_SLOT_BYTES, bodySlotStats, clearBodySlots, releaseBodySlot, takeBodySlot } from '../../src/http/body-slots.ts';

beforeEach(() => clearBodySlots());
afterEach(() => { vi.useRealTimers(); });

const N = 300_000;

describe('body slots', () => {
  it('a slot is shared memory of at least the size asked, and the view is exactly that size', () => {
    const b = takeBodySlot(N)!;
    expect(b.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(b.length).toBe(N);
    expect(b.byteOffset).toBe(0);
    expect(b.buffer.byteLength).toBeGreaterThanOrEqual(N);
  });

  it('bodies outside [MIN_SLOT_BYTES, MAX_SLOT_BYTES] get no slot', () => {
    expect(takeBodySlot(MIN_SLOT_BYTES - 1)).toBeNull();
    expect(takeBodySlot(MAX_SLOT_BYTES + 1)).toBeNull();
    expect(takeBodySlot(MIN_SLOT_BYTES)).not.toBeNull();
  });

  it('a slot held is never handed out again; given back, the next body of a fitting size reuses it', () => {
    const a = takeBodySlot(N)!;
    a.fill(0xaa);
    const held = Array.from({ length: 20 }, () => takeBodySlot(N)!);
    for (const h of held) expect(h.buffer).not.toBe(a.buffer);
    expect(new Set(held.map((h) => h.buffer)).size).toBe(held.length);
    // Writing every other body leaves the held one's bytes alone.
    for (const h of held) h.fill(0x55);
    expect(a.every((x) => x === 0xaa)).toBe(true);
    releaseBodySlot(a);
    const again = takeBodySlot(N - 1000)!;
    expect(again.buffer).toBe(a.buffer);
    expect(bodySlotStats().reused).toBeGreaterThanOrEqual(1);
  });

  it('a slot given back twice (or through a part of it) comes back once: two bodies never share it', () => {
    const a = takeBodySlot(N)!;
    releaseBodySlot(a.subarray(0, 10));
    releaseBodySlot(a);
    const x = takeBodySlot(N)!;
    const y = takeBodySlot(N)!;
    expect(x.buffer).toBe(a.buffer);
    expect(y.buffer).not.toBe(x.buffer);
  });

  it('a free slot much larger than the body is not used for it (a small body does not pin a big slot)', () => {
    const big = takeBodySlot(4 * N)!;
    releaseBodySlot(big);
    expect(takeBodySlot(N)!.buffer).not.toBe(big.buffer);
    expect(takeBodySlot(4 * N)!.buffer).toBe(big.buffer);
  });

  it('plain buffers and null are ignored; at most MAX_FREE_SLOTS are kept, the larger ones', () => {
    releaseBodySlot(Buffer.alloc(N));
    releaseBodySlot(null);
    expect(bodySlotStats().free).toBe(0);
    const slots = Array.from({ length: MAX_FREE_SLOTS + 3 }, (_, i) => takeBodySlot(MIN_SLOT_BYTES * (i + 1))!);
    for (const s of slots) releaseBodySlot(s);
    const st = bodySlotStats();
    expect(st.free).toBe(MAX_FREE_SLOTS);
    expect(st.lent).toBe(0);
    // The three smallest were left to GC.
    expect(takeBodySlot(MIN_SLOT_BYTES)!.buffer).not.toBe(slots[0]!.buffer);
  });

  it('keeps at most MAX_FREE_BYTES of given-back slots: one that would pass the bound is left to GC', () => {
    const size = 12 * 1024 * 1024;
    const count = Math.floor(MAX_FREE_BYTES / size) + 2;
    const slots = Array.from({ length: count }, () => takeBodySlot(size)!);
    for (const s of slots) releaseBodySlot(s);
    const st = bodySlotStats();
    expect(st.freeBytes).toBeLessThanOrEqual(MAX_FREE_BYTES);
    expect(st.free).toBe(Math.floor(MAX_FREE_BYTES / slots[0]!.buffer.byteLength));
    expect(st.free).toBeLessThan(count);
  });

  it('a client with 16 bodies in flight finds a given-back slot for every body once warm', () => {
    const n = 1_100_000;
    let inFlight = Array.from({ length: 16 }, () => takeBodySlot(n)!);
    const before = bodySlotStats().reused;
    for (let round = 0; round < 10; round++) {
      for (const s of inFlight) releaseBodySlot(s);
      inFlight = Array.from({ length: 16 }, () => takeBodySlot(n)!);
    }
    expect(bodySlotStats().reused - before).toBe(160);
  });

  it('given-back slots all go once no body took one for SPARE_IDLE_MS, not while bodies keep coming', () => {
    vi.useFakeTimers();
    const a = takeBodySlot(N)!;
    const b = takeBodySlot(N)!;
    releaseBodySlot(a);
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(SPARE_IDLE_MS / 2);
      releaseBodySlot(takeBodySlot(N)!); // sustained use keeps the spare
    }
    releaseBodySlot(b);
    expect(bodySlotStats().free).toBe(2);
    vi.advanceTimersByTime(SPARE_IDLE_MS * 2 + 10);
    expect(bodySlotStats().free).toBe(0);
    expect(bodySlotStats().lent).toBe(0);
  });
});
