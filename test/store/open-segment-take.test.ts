// Big runs of an ingest batch's rows are referenced by the open segment instead of copied
// (OpenSegment.takeRows): the rows read, copy, gather and seal exactly as copied rows do.

import { describe, expect, it, vi } from 'vitest';
import { OpenSegment } from '../../src/store/open-segment.ts';
import { generateEvents } from '../../src/gen/generate.ts';
import { serializeEvent } from '../../src/gen/serialize.ts';
import { parseTimestamp } from '../../src/core/time.ts';
import { ingestBoth, snapshot, twinStores } from './byte-ingest-diff.ts';

const NOW = parseTimestamp('2025-01-15T12:00:00Z')!;

/** Rows end to end as the addon writes them (JSON then extra columns), with each row's offsets. */
function rowsBuffer(n: number, pad: number): { buf: Buffer; at: number[]; split: number[]; end: number[] } {
  const parts: Buffer[] = [Buffer.from('prefix')];
  const at: number[] = [], split: number[] = [], end: number[] = [];
  let off = parts[0]!.length;
  for (let i = 0; i < n; i++) {
    const json = Buffer.from(JSON.stringify({ i, s: 'é'.repeat(i % 5), p: 'x'.repeat(pad) }));
    const extra = Buffer.from(i % 3 === 0 ? '' : `{"x":${i}}`);
    at.push(off); split.push(off + json.length); off += json.length + extra.length; end.push(off);
    parts.push(json, extra);
  }
  return { buf: Buffer.concat(parts), at, split, end };
}

/** Fills a segment from `rows` in runs of `run` rows, plus an appended row first and last. */
function fill(seg: OpenSegment, rows: ReturnType<typeof rowsBuffer>, run: number): void {
  seg.append(1, 1, 0, '{"first":1}', '{"e":1}', [0]);
  for (let i = 0; i < rows.at.length; i += run) {
    const j = Math.min(rows.at.length, i + run);
    const base = seg.takeRows(rows.buf, rows.at[i]!, rows.end[j - 1]!) - rows.at[i]!;
    for (let k = i; k < j; k++) seg.pushRow(10 + k, 10 + k, k % 3, base + rows.at[k]!, base + rows.split[k]!, [k % 2], 0);
  }
  seg.append(2, 2, 0, '{"last":2}', null, [0]);
}

describe('open segment: referenced runs', () => {
  it('reads, copies and gathers the same bytes whether runs are referenced (big) or copied (small)', () => {
    const rows = rowsBuffer(600, 400);
    const taken = new OpenSegment(1), copied = new OpenSegment(1);
    fill(taken, rows, 300); // runs of ~120 KB: referenced
    fill(copied, rows, 7); // runs of ~3 KB: copied into the own slab
    expect(taken.ownBytes).toBeLessThan(1000);
    expect(copied.ownBytes).toBe(copied.bytes);
    expect(taken.bytes).toBe(copied.bytes);
    expect(taken.n).toBe(602);
    for (let r = 0; r < taken.n; r++) {
      expect(taken.json(r)).toBe(copied.json(r));
      expect(taken.extra(r)).toBe(copied.extra(r));
      expect(taken.jsonBytesOf(r) + taken.extraBytesOf(r)).toBe(copied.jsonBytesOf(r) + copied.extraBytesOf(r));
    }
    expect(taken.json(5)).toBe(JSON.stringify({ i: 4, s: 'éééé', p: 'x'.repeat(400) }));
    expect(taken.extra(5)).toBe('{"x":4}');
    expect(taken.extra(4)).toBeNull();
    expect(taken.rowBytes().equals(copied.rowBytes())).toBe(true);
    // A seal's order: rows from every chunk, interleaved.
    const order = Uint32Array.from({ length: taken.n }, (_, k) => (k * 7919) % taken.n);
    const a = Buffer.alloc(taken.bytes + 10), b = Buffer.alloc(taken.bytes + 10);
    expect(taken.gatherRows(order, order.length, a, 10)).toBe(taken.bytes);
    copied.gatherRows(order, order.length, b, 10);
    expect(a.equals(b)).toBe(true);
    const one = Buffer.alloc(2000);
    expect(one.subarray(0, taken.copyRow(300, one, 0)).toString()).toBe(copied.json(300) + (copied.extra(300) ?? ''));
  });

  it('stores what the reference path stores for big batches sealed in the middle, with dropped rows', () => {
    const lines: string[] = [];
    for (const { source, event } of generateEvents({ events: 3000, projects: 3, days: 2 / 24, seed: 11, endUs: NOW, sources: ['edge.logs.prod'] })) lines.push(serializeEvent(source, event));
    // Over two hours, 100 minutes' retention drops older events inside the first batch, splitting it into runs.
    const t = twinStores('edge.logs.prod', { segmentRows: 700, retentionUs: 100 * 60_000_000 });
    const take = vi.spyOn(OpenSegment.prototype, 'takeRows');
    let bodies = 0, dropped = 0;
    for (let i = 0; i < lines.length; i += 1000) {
      const r = ingestBoth(t, Buffer.from(lines.slice(i, i + 1000).join('\n')), 'application/x-ndjson', NOW);
      expect(r.fast).toEqual(r.ref);
      if ('ok' in r.fast) dropped += r.fast.ok.dropped;
      bodies++;
    }
    expect(t.took).toBe(bodies);
    // Both kinds of run were placed: big ones (referenced) and small ones (copied).
    const sizes = take.mock.calls.map(([, start, end]) => end - start);
    take.mockRestore();
    expect(sizes.some((n) => n >= 64 * 1024)).toBe(true);
    expect(sizes.some((n) => n < 64 * 1024)).toBe(true);
    expect(dropped).toBeGreaterThan(0);
    expect(snapshot(t.fast)).toEqual(snapshot(t.ref));
  });
});
