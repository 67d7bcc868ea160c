// A seal's row order without a comparator sort (seal-order.ts) is the (pid, ts, seq) order the seal is
// specified by, and the addon's gather (a seal's row copies) copies exactly the byte ranges it is given.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sealOrder } from '../../src/store/seal-order.ts';
import { loadIngestAddon } from '../../src/store/native-ingest.ts';
import { OpenSegment } from '../../src/store/open-segment.ts';
import { sealOpen } from '../../src/store/segment-build.ts';
import { BlockCodec } from '../../src/store/block-codec.ts';

interface Row { ts: number; pid: number }

/** The specification: kept rows (ts >= w) sorted by pid, then ts, then seq; byTs their positions by (ts, seq). */
function expected(rows: readonly Row[], seq: readonly number[], w: number): { order: number[]; byTs: number[] } {
  const kept = rows.map((_, i) => i).filter((i) => rows[i]!.ts >= w);
  const order = [...kept].sort((a, b) => rows[a]!.pid - rows[b]!.pid || rows[a]!.ts - rows[b]!.ts || seq[a]! - seq[b]!);
  const byTs = [...order.keys()].sort((x, y) => rows[order[x]!]!.ts - rows[order[y]!]!.ts || seq[order[x]!]! - seq[order[y]!]!);
  return { order, byTs };
}

const rowsArb = fc.array(fc.record({ ts: fc.integer({ min: 0, max: 50 }), pid: fc.integer({ min: 0, max: 6 }) }), { maxLength: 200 });

describe('sealOrder', () => {
  it('orders kept rows by (pid, ts, seq) and gives their ts permutation, in or out of time order', () => {
    fc.assert(fc.property(rowsArb, fc.integer({ min: -1, max: 30 }), fc.boolean(), (rows, w, sortedInput) => {
      const input = sortedInput ? [...rows].sort((a, b) => a.ts - b.ts) : rows;
      const seq = input.map((_, i) => 1000 + i);
      const got = sealOrder(input.map((r) => r.ts), seq, input.map((r) => r.pid), w);
      const want = expected(input, seq, w);
      expect([...got.order]).toEqual(want.order);
      expect([...got.byTs]).toEqual(want.byTs);
    }), { numRuns: 300 });
  });

  it('breaks ties of equal ts by seq even when seq does not follow the row index', () => {
    const got = sealOrder([5, 5, 5, 1], [30, 10, 20, 40], [0, 0, 0, 0], 0);
    expect([...got.order]).toEqual([3, 1, 2, 0]);
  });
});

describe('the addon gather', () => {
  const addon = loadIngestAddon();

  it('copies the ranges end to end from the given offset and returns the byte count', () => {
    const dst = Buffer.alloc(8, '.');
    expect(addon.gather(dst, 1, Buffer.from('abcdefgh'), new Float64Array([6, 8, 0, 3, 3, 3]), 3)).toBe(5);
    expect(dst.toString()).toBe('.ghabc..');
  });

  it('refuses ranges outside the source or past the target, copying nothing', () => {
    const dst = Buffer.alloc(4, '.');
    expect(() => addon.gather(dst, 0, Buffer.from('ab'), new Float64Array([0, 3]), 1)).toThrow(RangeError);
    expect(() => addon.gather(dst, 3, Buffer.from('abcd'), new Float64Array([0, 2]), 1)).toThrow(RangeError);
    expect(() => addon.gather(dst, 0, Buffer.from('abcd'), new Float64Array([0, 2]), 2)).toThrow(TypeError);
    expect(dst.toString()).toBe('....');
  });

  it('a compressed seal holds every row byte for byte, in (pid, ts) order, across block boundaries', () => {
    const o = new OpenSegment(0);
    const want: { pid: number; ts: number; json: string; extra: string | null }[] = [];
    for (let i = 0; i < 3000; i++) {
      const pid = (i * 7) % 5, ts = 1_000_000 - i, json = JSON.stringify({ i, pad: 'x'.repeat(i % 300), u: 'é' });
      const extra = i % 3 === 0 ? `{"e":${i}}` : null;
      o.append(ts, i + 1, pid, json, extra, []);
      want.push({ pid, ts, json, extra });
    }
    want.sort((a, b) => a.pid - b.pid || a.ts - b.ts);
    const seg = sealOpen(o, 0, new BlockCodec(null, 16 * 1024))!;
    expect(seg.rows.compressed).toBe(true);
    expect(Array.from({ length: seg.n }, (_, r) => ({ pid: seg.pid[r]!, ts: seg.ts.at(r), json: seg.rows.json(r), extra: seg.rows.extra(r) }))).toEqual(want);
  });
});
