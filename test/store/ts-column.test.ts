// Sealed segments hold timestamps frame-of-reference encoded (ts-column.ts): every row reads back its exact
// timestamp at every width (40-bit, 48-bit, plain Float64 for fractional or very wide spans), after seals,
// merges and purges across block boundaries and out-of-order arrival, and through a checkpoint image.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TsColumn } from '../../src/store/ts-column.ts';
import { OpenSegment } from '../../src/store/open-segment.ts';
import { mergeSegments, sealOpen } from '../../src/store/segment-build.ts';
import { BlockCodec } from '../../src/store/block-codec.ts';
import { encodeSegment, decodeSegment } from '../../src/store/segment-image.ts';
import type { Segment } from '../../src/store/segment.ts';

const T0 = 1_764_000_000_000_000; // 2025-11-24 in µs

function open(ts: readonly number[], seq0: number, pids: readonly number[]): OpenSegment {
  const o = new OpenSegment(0);
  ts.forEach((t, i) => o.append(t, seq0 + i, pids[i % pids.length]!, JSON.stringify({ t, i: seq0 + i }), null, []));
  return o;
}

/** Each row's (timestamp, stored JSON) as read through the segment's columns. */
const rowsOf = (seg: Segment): string[] => Array.from({ length: seg.n }, (_, r) => `${seg.ts.at(r)}|${seg.json(r)}`).sort();

describe('timestamp columns', () => {
  it('read back every value exactly, in the narrowest encoding that holds them', () => {
    const cases: [number[], boolean, number][] = [
      [[T0, T0 + 1, T0 + 2 ** 32 - 1, T0 + 2 ** 32], true, 5],
      [[T0, T0 + 2 ** 40 - 1], true, 5],
      [[T0, T0 + 2 ** 40], true, 6],
      [[-5, 2 ** 40], true, 6],
      [[-5, T0], false, 8],
      [[0, 2 ** 48 - 1], true, 6],
      [[0, 2 ** 48], false, 8],
      [[T0, T0 + 0.5], false, 8],
      [[Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER], false, 8],
    ];
    for (const [ts, packed, perRow] of cases) {
      const c = TsColumn.of(ts);
      expect(Array.from({ length: ts.length }, (_, i) => c.at(i))).toEqual(ts);
      expect([c.packed, c.byteLength]).toEqual([packed, perRow * ts.length]);
      expect(Array.from(c.toFloat64())).toEqual(ts);
    }
    expect(TsColumn.of([]).length).toBe(0);
  });

  it('hold any integer timestamps exactly', () => {
    fc.assert(fc.property(
      fc.array(fc.integer({ min: -(2 ** 50), max: 2 ** 50 }), { minLength: 1, maxLength: 300 }),
      fc.integer({ min: 0, max: 2 ** 52 }),
      (offsets, base) => {
        const ts = offsets.map((o) => base + o);
        const c = TsColumn.of(ts);
        expect(Array.from({ length: ts.length }, (_, i) => c.at(i))).toEqual(ts);
      },
    ), { numRuns: 200 });
  });

  it('survive seals of out-of-order rows, merges and purges across blocks, and a checkpoint image', () => {
    const codec = new BlockCodec(null, 256);
    const tsArb = fc.array(fc.oneof(
      fc.integer({ min: T0, max: T0 + 10_000 }),
      fc.integer({ min: T0, max: T0 + 2 ** 41 }),
      fc.double({ min: T0, max: T0 + 1e6, noNaN: true }),
    ), { minLength: 1, maxLength: 120 });
    fc.assert(fc.property(tsArb, tsArb, fc.integer({ min: T0, max: T0 + 2 ** 41 }), (a, b, w) => {
      const sa = sealOpen(open(a, 1, [3, 1, 2]), -Infinity, codec)!, sb = sealOpen(open(b, 1 + a.length, [2, 5]), -Infinity, codec)!;
      const want = (ts: number[], seq0: number): string[] => ts.map((t, i) => `${t}|${JSON.stringify({ t, i: seq0 + i })}`);
      expect(rowsOf(sa)).toEqual(want(a, 1).sort());
      const m = mergeSegments(sa, sb, -Infinity, codec)!;
      const all = [...want(a, 1), ...want(b, 1 + a.length)].sort();
      expect(rowsOf(m)).toEqual(all);
      expect([m.minTs, m.maxTs]).toEqual([Math.min(...a, ...b), Math.max(...a, ...b)]);
      // The ts order reads ascending through the column.
      for (let p = 1; p < m.n; p++) expect(m.ts.at(m.byTs[p]!)).toBeGreaterThanOrEqual(m.ts.at(m.byTs[p - 1]!));
      const back = decodeSegment(encodeSegment(m, () => 'c'), new Map([['c', codec]]));
      expect(rowsOf(back)).toEqual(all);
      expect([back.ts.packed, back.ts.byteLength]).toEqual([m.ts.packed, m.ts.byteLength]);
      // A restored segment holds (and counts) the columns a built one does: sequence numbers stay 32-bit.
      expect(back.seq.constructor).toBe(Uint32Array);
      expect(back.bytes).toBe(m.bytes);
      const purged = mergeSegments(m, null, w, codec);
      expect(purged === null ? [] : rowsOf(purged)).toEqual(all.filter((s) => Number(s.split('|')[0]) >= w));
    }), { numRuns: 60 });
  });
});
