// tsOrder (an open segment's rows by timestamp, ties by row index) equals the comparator sort it replaced,
// for in-order rows, shuffled rows, duplicates, fractional and negative values and spans past 2^52.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { tsOrder } from '../../src/store/ts-order.ts';

const reference = (ts: number[]): number[] => ts.map((_, i) => i).sort((a, b) => ts[a]! - ts[b]! || a - b);

/** A seeded shuffle-ish permutation of µs timestamps around 2026 with many duplicates. */
function shuffled(n: number, seed: number): number[] {
  let x = seed >>> 0;
  const rnd = (): number => { x = (x * 1664525 + 1013904223) >>> 0; return x / 2 ** 32; };
  const base = 1_794_981_661_980_126;
  return Array.from({ length: n }, () => base + Math.floor(rnd() * 7 * 86_400e6 / 1000) * 1000 + (rnd() < 0.3 ? 0 : Math.floor(rnd() * 999)));
}

describe('tsOrder', () => {
  it('matches the comparator sort on shuffled µs timestamps (radix path) and on rows already in order', () => {
    for (const n of [0, 1, 2047, 2048, 2049, 100_000]) {
      const ts = shuffled(n, n + 7);
      expect([...tsOrder(ts, n)]).toEqual(reference(ts));
      const inOrder = [...ts].sort((a, b) => a - b);
      expect([...tsOrder(inOrder, n)]).toEqual(reference(inOrder));
    }
  });

  it('matches it on arbitrary values: duplicates, negatives, fractions, huge spans, mostly-sorted runs', () => {
    const value = fc.oneof(
      fc.integer({ min: -5, max: 5 }),
      fc.integer({ min: 1_700_000_000_000_000, max: 1_800_000_000_000_000 }),
      fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e18, max: 1e18 }),
      fc.constantFrom(2 ** 52, -(2 ** 52), 2 ** 53, 0.5),
    );
    fc.assert(fc.property(fc.array(value, { maxLength: 300 }), fc.integer({ min: 0, max: 6000 }), fc.integer({ min: 0, max: 2 ** 31 }), (extra, pad, seed) => {
      // Padding with integer timestamps takes the radix path (≥ 2048 rows) unless an extra value forbids it.
      const ts = [...shuffled(pad, seed), ...extra];
      expect([...tsOrder(ts, ts.length)]).toEqual(reference(ts));
    }), { numRuns: 60 });
  });

  it('matches it past 1M rows, where its output and the radix sort\'s scratch are huge-page memory, not zero-filled', () => {
    const n = 1_100_000, ts = shuffled(n, 99);
    expect(Array.from(tsOrder(Float64Array.from(ts), n))).toEqual(reference(ts));
    const inOrder = Float64Array.from(ts).sort();
    const order = tsOrder(inOrder, n);
    expect(order.length).toBe(n);
    for (let i = 0; i < n; i++) if (order[i] !== i) expect(order[i]).toBe(i);
  });

  it('reads only the first n values', () => {
    const ts = [5, 3, 9, 1, 0, -1];
    expect([...tsOrder(ts, 4)]).toEqual([3, 1, 0, 2]);
  });
});
