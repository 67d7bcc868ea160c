// Compaction merges up to four sealed segments at once (segment-build.ts mergeAll): the result holds the
// inputs' rows in (project, time, sequence) order, as a cascade of pairwise merges does, and a
// source's segments grow as a base-4 counter, so each row is copied log4 rather than log2 times.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OpenSegment } from '../../src/store/open-segment.ts';
import { mergeAll, mergeSegments, sealOpen } from '../../src/store/segment-build.ts';
import { BlockCodec } from '../../src/store/block-codec.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';
import { SegmentSet } from '../../src/store/segment-set.ts';
import type { Segment } from '../../src/store/segment.ts';
import type { StoreConfig } from '../../src/store/types.ts';

type Spec = { ts: number; pid: number; hot: number; shape: number; len: number };

/** A row as read back: ts, sequence number, project, hot id, shape, JSON, extra columns. */
type Row = [number, number, number, number, number, string, string | null];

/** Everything a sealed segment holds, row by row in its order, and its ts permutation. */
function contents(seg: Segment | null): unknown {
  if (seg === null) return null;
  const rows = Array.from({ length: seg.n }, (_, r): Row => [seg.ts.at(r), seg.seqBase + seg.seq[r]!, seg.pid[r]!, seg.hot[0]![r]!, seg.shape[r]!, seg.json(r), seg.extra(r)]);
  return { n: seg.n, rows, byTs: Array.from(seg.byTs), runs: [...seg.runs.entries()] };
}

/** Each project's run of rows [start, end) in rows sorted by project. */
function runsOf(rows: Row[]): [number, { start: number; end: number }][] {
  const runs: [number, { start: number; end: number }][] = [];
  rows.forEach((r, i) => { if (i === 0 || rows[i - 1]![2] !== r[2]) runs.push([r[2], { start: i, end: i + 1 }]); else runs.at(-1)![1].end = i + 1; });
  return runs;
}

describe('merging sealed segments', () => {
  it('of k at once hold the rows at or above the watermark in (project, time, sequence) order, as pairwise merges do', () => {
    // Few distinct times and projects, so equal (pid, ts) keys meet across inputs.
    const spec = fc.record({ ts: fc.integer({ min: 0, max: 12 }), pid: fc.integer({ min: 0, max: 3 }), hot: fc.nat(300), shape: fc.nat(3), len: fc.integer({ min: 0, max: 300 }) });
    const inputs = fc.array(fc.array(spec, { minLength: 1, maxLength: 60 }), { minLength: 1, maxLength: 5 });
    fc.assert(fc.property(inputs, fc.integer({ min: -1, max: 8 }), fc.boolean(), (segRows: Spec[][], w, compressed) => {
      const codec = compressed ? new BlockCodec(null, 1024) : null;
      let seq = 1;
      const segs = segRows.map((rows) => {
        const o = new OpenSegment(1);
        for (const r of rows) {
          const s = seq++;
          o.append(r.ts, s, r.pid, JSON.stringify({ s, pad: 'x'.repeat(r.len) }), r.len % 3 === 0 ? null : JSON.stringify({ e: s }), [r.hot], r.shape);
        }
        return sealOpen(o, -Infinity, codec)!;
      });
      compressPendingNow();
      const once = mergeAll(segs, w, codec);
      let cascade: Segment | null = mergeSegments(segs[0]!, null, w, codec);
      for (let j = 1; j < segs.length; j++) cascade = cascade === null ? mergeSegments(segs[j]!, null, w, codec) : mergeSegments(cascade, segs[j]!, w, codec);
      compressPendingNow();
      // The oracle: every input row at or above the watermark, in (pid, ts, seq) order; byTs in (ts, seq) order.
      const all = segs.flatMap((g) => (contents(g) as { rows: Row[] }).rows).filter((r) => r[0] >= w);
      all.sort((x, y) => x[2] - y[2] || x[0] - y[0] || x[1] - y[1]);
      const byTs = all.map((r, i) => [r, i] as const).sort(([x], [y]) => x[0] - y[0] || x[1] - y[1]).map(([, i]) => i);
      const expected = all.length === 0 ? null : { n: all.length, rows: all, byTs, runs: runsOf(all) };
      expect(contents(once)).toEqual(expected);
      expect(contents(cascade)).toEqual(expected);
    }), { numRuns: 300 });
  }, 60_000);

  it('refuses no inputs or more than 255', () => {
    expect(() => mergeAll([], 0)).toThrow(/a merge of 0 segments/);
    const o = new OpenSegment(1);
    o.append(1, 1, 0, '{}', null, [0]);
    const seg = sealOpen(o, -Infinity)!;
    expect(() => mergeAll(Array<Segment>(256).fill(seg), 0)).toThrow(/a merge of 256 segments/);
    expect(mergeAll(Array<Segment>(255).fill(seg), 0)!.n).toBe(255);
  });
});

describe('compaction', () => {
  const config: StoreConfig = { retentionUs: 1e15, maxRows: 1e9, maxBytes: 1e12, segmentRows: 10, maxEventDepth: 16, maxStringBytes: 1 << 20 };

  it('grows segments as a base-4 counter of seals', () => {
    const set = new SegmentSet(config, 0);
    const sizes: number[][] = [];
    let seq = 0;
    for (let seal = 1; seal <= 21; seal++) {
      for (let i = 0; i < 10; i++) { seq++; set.open.append(seq * 1e6, seq, 0, JSON.stringify({ seq }), null, []); }
      set.seal();
      sizes.push(set.segments.map((s) => s.n));
    }
    // Seals of 10 rows: three wait, the fourth merges them into 40; four 40s make 160.
    expect(sizes[2]).toEqual([10, 10, 10]);
    expect(sizes[3]).toEqual([40]);
    expect(sizes[7]).toEqual([40, 40]);
    expect(sizes[15]).toEqual([160]);
    expect(sizes[20]).toEqual([160, 40, 10]);
  });

  it('merges as many of the newest as fit the row cap, at least two', () => {
    // maxRows / 16 caps a segment at 30 rows: four 10-row seals do not fit, three do.
    const set = new SegmentSet({ ...config, maxRows: 480 }, 0);
    let seq = 0;
    for (let seal = 1; seal <= 4; seal++) {
      for (let i = 0; i < 10; i++) { seq++; set.open.append(seq * 1e6, seq, 0, JSON.stringify({ seq }), null, []); }
      set.seal();
    }
    expect(set.segments.map((s) => s.n)).toEqual([10, 30]);
  });
});
