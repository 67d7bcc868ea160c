// Sealed segments keep project ids, hot ids and block slots in the narrowest array that holds them, read
// back every row's values exactly after seals and merges across block boundaries, and count the bytes of
// the arrays they hold (what eviction by bytes and the memory budget compare).

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OpenSegment } from '../../src/store/open-segment.ts';
import { mergeSegments, sealOpen } from '../../src/store/segment-build.ts';
import { BlockCodec } from '../../src/store/block-codec.ts';
import { BlockRows } from '../../src/store/row-blocks.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';
import type { Segment } from '../../src/store/segment.ts';

interface Row { ts: number; pid: number; url: number; method: number; msg: string }

const rowArb = (maxPid: number, maxUrl: number): fc.Arbitrary<Row> => fc.record({
  ts: fc.integer({ min: 0, max: 10_000 }), pid: fc.integer({ min: 0, max: maxPid }), url: fc.integer({ min: 0, max: maxUrl }),
  method: fc.integer({ min: 0, max: 5 }), msg: fc.string({ maxLength: 40 }),
});

function open(rows: readonly Row[], seq0: number): OpenSegment {
  const o = new OpenSegment(2);
  rows.forEach((r, i) => o.append(r.ts, seq0 + i, r.pid, JSON.stringify({ m: r.msg, i: seq0 + i }), null, [r.url, r.method]));
  return o;
}

/** The narrowest kind for values up to max. */
const kind = (max: number): string => (max < 256 ? 'Uint8Array' : max < 65536 ? 'Uint16Array' : 'Uint32Array');

function columns(seg: Segment): string[] {
  const out: string[] = [];
  for (let r = 0; r < seg.n; r++) out.push(`${seg.ts.at(r)} ${seg.seqBase + seg.seq[r]!} ${seg.pid[r]} ${seg.hot[0]![r]} ${seg.hot[1]![r]} ${seg.json(r)}`);
  return out.sort();
}

describe('narrow sealed columns', () => {
  it('hold each value exactly in the narrowest width, across seals, merges and block boundaries', () => {
    fc.assert(fc.property(
      fc.constantFrom(3, 300, 70_000).chain((maxPid) => fc.constantFrom(5, 1000, 100_000).chain((maxUrl) => fc.tuple(
        fc.array(rowArb(maxPid, maxUrl), { minLength: 1, maxLength: 150 }), fc.array(rowArb(maxPid, maxUrl), { minLength: 1, maxLength: 150 }),
      ))),
      fc.integer({ min: 64, max: 4096 }),
      ([a, b], blockBytes) => {
        const codec = new BlockCodec(null, blockBytes);
        const sa = sealOpen(open(a, 1), -Infinity, codec)!, sb = sealOpen(open(b, 1 + a.length), -Infinity, codec)!;
        const m = mergeSegments(sa, sb, -Infinity, codec)!;
        const want = [...columns(sa), ...columns(sb)].sort();
        expect(columns(m)).toEqual(want);
        for (const [seg, rows] of [[sa, a], [sb, b], [m, [...a, ...b]]] as const) {
          expect(seg.pid.constructor.name).toBe(kind(Math.max(...rows.map((r) => r.pid))));
          expect(seg.hot[0]!.constructor.name).toBe(kind(Math.max(...rows.map((r) => r.url))));
          expect(seg.hot[1]!.constructor.name).toBe('Uint8Array');
        }
      },
    ), { numRuns: 60 });
  });

  it('count the bytes of the arrays they hold', () => {
    const rows = Array.from({ length: 2000 }, (_, i): Row => ({ ts: i, pid: i % 7, url: i % 300, method: i % 3, msg: `m${i}` }));
    const seg = sealOpen(open(rows, 1), -Infinity, new BlockCodec(null, 4096))!;
    compressPendingNow();
    const blocks = seg.rows as BlockRows;
    // ~25-byte rows in 4 KiB blocks: ~160 rows a block, so slots fit 8 bits; 13 blocks, so block numbers too.
    let blockBytes = 0;
    for (const b of blocks.blocks) blockBytes += b.residentBytes;
    // ts (frame of reference: 32-bit low and 8-bit high offsets), seq, pid, url (300 ids), method, shape, ts order
    const perRow = 5 + 4 + 1 + 2 + 1 + 1 + 4;
    // Block and slot per row as runs: a seal makes one per block (32-bit first row, 8-bit block and first
    // slot), plus the end.
    const k = blocks.blocks.length;
    expect(blocks.runCount).toBe(k);
    expect(seg.bytes).toBe(blockBytes + seg.n * perRow + 4 * (k + 1) + k + k + seg.runs.size * 64 + 256);
  });
});
