// Sealed segments hold each row's block and slot as runs of consecutive slots (row-blocks.ts rowRuns):
// the runs expand back to the per-row tables exactly, and rows read in any order (random, backwards,
// after a merge interleaving two inputs' blocks) give what the per-row tables gave.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rowRuns, BlockRows } from '../../src/store/row-blocks.ts';
import { OpenSegment } from '../../src/store/open-segment.ts';
import { mergeSegments, sealOpen } from '../../src/store/segment-build.ts';
import { BlockCodec } from '../../src/store/block-codec.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';

/** Per-row tables: stretches of consecutive slots in a block, some one row long, some jumping back. */
const tables = fc.array(fc.record({ blk: fc.nat(300), slot: fc.nat(70_000), len: fc.integer({ min: 1, max: 40 }) }), { minLength: 1, maxLength: 60 })
  .map((parts) => {
    const blk: number[] = [], slot: number[] = [];
    for (const p of parts) for (let i = 0; i < p.len; i++) { blk.push(p.blk); slot.push(p.slot + i); }
    return { blk, slot, parts: parts.length };
  });

describe('row runs', () => {
  it('expand back to every row\'s block and slot, with no more runs than stretches', () => {
    fc.assert(fc.property(tables, ({ blk, slot, parts }) => {
      const runs = rowRuns(blk, slot);
      const n = blk.length, count = runs.start.length - 1;
      expect(count).toBeLessThanOrEqual(parts);
      expect(runs.start[0]).toBe(0);
      expect(runs.start[count]).toBe(n);
      for (let j = 0; j < count; j++) {
        expect(runs.start[j + 1]!).toBeGreaterThan(runs.start[j]!);
        for (let r = runs.start[j]!; r < runs.start[j + 1]!; r++) {
          expect(runs.blk[j]).toBe(blk[r]);
          expect(runs.slot[j]! + r - runs.start[j]!).toBe(slot[r]);
        }
      }
      // Widths follow the largest first slot and block number (slots past 65,535 take 32 bits).
      if (Math.max(...slot) < 256) expect(runs.slot).toBeInstanceOf(Uint8Array);
    }), { numRuns: 200 });
  });

  it('read the same rows in any order after seals and a merge that interleaves both inputs\' blocks', () => {
    const rowArb = fc.record({ ts: fc.integer({ min: 0, max: 50 }), pid: fc.integer({ min: 0, max: 5 }), len: fc.integer({ min: 1, max: 200 }) });
    fc.assert(fc.property(fc.array(rowArb, { minLength: 1, maxLength: 150 }), fc.array(rowArb, { minLength: 1, maxLength: 150 }), fc.array(fc.nat(), { maxLength: 200 }), (a, b, picks) => {
      const codec = new BlockCodec(null, 512);
      const mk = (rows: typeof a, seq0: number): OpenSegment => {
        const o = new OpenSegment(0);
        rows.forEach((r, i) => o.append(r.ts, seq0 + i, r.pid, JSON.stringify({ i: seq0 + i, x: 'x'.repeat(r.len) }), null, []));
        return o;
      };
      const merged = mergeSegments(sealOpen(mk(a, 1), 0, codec)!, sealOpen(mk(b, 1 + a.length), 0, codec)!, 0, codec)!;
      compressPendingNow();
      const rows = merged.rows as BlockRows;
      // In row order first (each row's JSON names its sequence number, which the seq column holds).
      const inOrder: string[] = [];
      for (let r = 0; r < merged.n; r++) {
        inOrder.push(rows.json(r));
        expect(JSON.parse(rows.json(r)).i).toBe(merged.seqBase + merged.seq[r]!);
      }
      // Then backwards, then at random rows: the run cache must never answer for the wrong run.
      for (let r = merged.n - 1; r >= 0; r--) expect(rows.json(r)).toBe(inOrder[r]);
      for (const p of picks) { const r = p % merged.n; expect(rows.jsonBytesOf(r)).toBe(Buffer.byteLength(inOrder[r]!)); expect(rows.json(r)).toBe(inOrder[r]); }
      expect(rows.runCount).toBeLessThanOrEqual(merged.n);
    }), { numRuns: 60 });
  });
});
