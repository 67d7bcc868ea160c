// Compressed blocks keep each row's start (16-bit in 64 KiB blocks) and the length of its extra keys
// instead of 32-bit row and JSON end tables: every row's JSON, extra and sizes read back exactly across
// block boundaries, seals and merges, checkpoint tables round-trip, and resident bytes count the new sizes.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OpenSegment } from '../../src/store/open-segment.ts';
import { mergeSegments, sealOpen } from '../../src/store/segment-build.ts';
import { BlockCodec } from '../../src/store/block-codec.ts';
import { Block, BlockRows } from '../../src/store/row-blocks.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';
import { encodeSegment, decodeSegment } from '../../src/store/segment-image.ts';
import type { Segment } from '../../src/store/segment.ts';

interface Row { ts: number; pid: number; body: string; extra: string | null }

const rowArb: fc.Arbitrary<Row> = fc.record({
  ts: fc.integer({ min: 0, max: 1000 }), pid: fc.integer({ min: 0, max: 4 }),
  // Rows from a few bytes to longer than a test block; extras from none to past 255 bytes (a wider column).
  body: fc.oneof(fc.string({ maxLength: 20 }), fc.string({ minLength: 100, maxLength: 400 })),
  extra: fc.option(fc.oneof(fc.string({ maxLength: 10 }), fc.string({ minLength: 260, maxLength: 300 })), { nil: null }),
});

function open(rows: readonly Row[], seq0: number): OpenSegment {
  const o = new OpenSegment(0);
  rows.forEach((r, i) => o.append(r.ts, seq0 + i, r.pid, JSON.stringify({ b: r.body, i: seq0 + i }), r.extra === null ? null : JSON.stringify({ x: r.extra }), []));
  return o;
}

/** What each row reads back as, in storage order, through every accessor. */
function readBack(seg: Segment): string[] {
  const out: string[] = [];
  for (let r = 0; r < seg.n; r++) {
    const buf = Buffer.alloc(seg.jsonBytesOf(r) + seg.extraBytesOf(r));
    const copied = seg.copyRow(r, buf, 0);
    const json = seg.json(r), extra = seg.extra(r);
    expect(seg.jsonBytes(r).toString()).toBe(json);
    expect(seg.jsonBytesOf(r)).toBe(Buffer.byteLength(json));
    expect(seg.extraBytesOf(r)).toBe(extra === null ? 0 : Buffer.byteLength(extra));
    expect(copied).toBe(buf.length);
    expect(buf.toString()).toBe(json + (extra ?? ''));
    out.push(`${seg.ts.at(r)}|${json}|${extra}`);
  }
  return out;
}

const expected = (rows: readonly Row[], seq0: number): string[] =>
  rows.map((r, i) => `${r.ts}|${JSON.stringify({ b: r.body, i: seq0 + i })}|${r.extra === null ? null : JSON.stringify({ x: r.extra })}`);

describe('block row tables', () => {
  it('read every row back exactly across block boundaries, seals, merges and a checkpoint round trip', () => {
    fc.assert(fc.property(fc.array(rowArb, { minLength: 1, maxLength: 120 }), fc.array(rowArb, { minLength: 1, maxLength: 120 }), fc.constantFrom(64, 512, 2048), (a, b, blockBytes) => {
      const codec = new BlockCodec(null, blockBytes);
      const sa = sealOpen(open(a, 1), 0, codec)!, sb = sealOpen(open(b, 1 + a.length), 0, codec)!;
      compressPendingNow();
      const merged = mergeSegments(sa, sb, 0, codec)!;
      compressPendingNow();
      const want = [...expected(a, 1), ...expected(b, 1 + a.length)].sort();
      expect(readBack(merged).sort()).toEqual(want);
      const back = decodeSegment(encodeSegment(merged, () => 'c'), new Map([['c', codec]]));
      expect(readBack(back)).toEqual(readBack(merged));
      expect(back.rows.bytes).toBe(merged.rows.bytes);
    }), { numRuns: 60 });
  });

  it('holds row starts in 16 bits and extra lengths in 8 bits for ~480 B rows in 64 KiB blocks, and counts them', () => {
    const rows: Row[] = [];
    for (let i = 0; i < 2000; i++) rows.push({ ts: i, pid: i % 3, body: 'x'.repeat(400 + (i % 50)), extra: i % 2 === 0 ? 'proj' : null });
    const seg = sealOpen(open(rows, 1), 0, new BlockCodec(null))!;
    compressPendingNow();
    const blocks = (seg.rows as BlockRows).blocks;
    expect(blocks.length).toBeGreaterThan(10);
    let tables = 0, comp = 0;
    blocks.forEach((blk, i) => {
      expect(blk.starts).toBeInstanceOf(Uint16Array);
      expect(blk.extraLen).toBeInstanceOf(Uint8Array);
      // Blocks end at the first row that reaches 64 KiB: the length itself may not fit 16 bits.
      if (i < blocks.length - 1) expect(blk.rawLen).toBeGreaterThanOrEqual(64 * 1024);
      tables += blk.starts.byteLength + blk.extraLen.byteLength;
      comp += blk.comp!.length;
    });
    // 3 bytes of row tables per row (2 start + 1 extra length) rather than 8 (two 32-bit ends).
    expect(tables).toBe(3 * blocks.reduce((s, blk) => s + blk.rowCount, 0));
    const rowsBytes = (seg.rows as BlockRows).bytes;
    // Plus the run tables: one run per block after a seal (4-byte start, block and first slot), and the end.
    const rb = seg.rows as BlockRows;
    expect(rb.runCount).toBe(blocks.length);
    expect(rowsBytes).toBe(comp + tables + 96 * blocks.length + 4 * (blocks.length + 1) + blocks.length /* block numbers: under 256 */ + blocks.length /* first slots: 0 */);
    readBack(seg);
  });

  it('keeps no extra-length table in a block whose rows have no extra keys, and reads such rows back', () => {
    const rows: Row[] = [];
    // Rows 0-199 have no extra keys; rows 200-399 alternate: blocks of the first part need no table.
    for (let i = 0; i < 400; i++) rows.push({ ts: i, pid: 0, body: 'y'.repeat(300 + (i % 7)), extra: i >= 200 && i % 2 === 0 ? 'e' : null });
    const codec = new BlockCodec(null, 4096);
    const seg = sealOpen(open(rows, 1), 0, codec)!;
    compressPendingNow();
    const rb = seg.rows as BlockRows;
    let bare = 0, withTable = 0;
    const bareTables = new Set<unknown>();
    for (const blk of rb.blocks) {
      let any = false;
      for (let k = 0; k < blk.rowCount; k++) if (blk.extraOf(k) !== 0) any = true;
      if (any) { withTable++; expect(blk.extraLen.length).toBe(blk.rowCount); } else { bare++; expect(blk.extraLen.byteLength).toBe(0); bareTables.add(blk.extraLen); }
    }
    expect(bare).toBeGreaterThan(5);
    // One shared empty table, not an array object per block.
    expect(bareTables.size).toBe(1);
    expect(withTable).toBeGreaterThan(5);
    for (let r = 0; r < seg.n; r++) expect(rb.extraBytesOf(r) === 0).toBe(rb.extra(r) === null);
    expect(readBack(seg).sort()).toEqual(expected(rows, 1).sort());
    // Read back from a checkpoint image (tables rebuilt from the row ends), rows and counted bytes stay exact.
    const back = decodeSegment(encodeSegment(seg, () => 'c'), new Map([['c', codec]]));
    expect(readBack(back)).toEqual(readBack(seg));
    expect(back.rows.bytes).toBe(seg.rows.bytes);
  });

  it('refuses a checkpoint block whose tables disagree', () => {
    const codec = new BlockCodec(null);
    expect(() => Block.fromCompressed(Buffer.alloc(1), codec, Uint16Array.of(0, 5, 9), Uint16Array.of(4))).toThrow(/row tables/);
  });
});
