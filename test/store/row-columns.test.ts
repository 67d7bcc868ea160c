// The open segment's row columns (src/store/row-columns.ts): JS arrays, then typed arrays past TYPED_FROM
// rows grown by doubling; every reader sees exactly the values pushed, through views as long as the rows.

import { describe, expect, it } from 'vitest';
import { RowColumns, TYPED_FROM } from '../../src/store/row-columns.ts';
import { OpenSegment } from '../../src/store/open-segment.ts';
import { purgeOpen, openWithoutProjects, sealOpen } from '../../src/store/segment-build.ts';

/** A seeded row: fractional and integer timestamps, sequence numbers past 2^32, small ids. */
function row(i: number): { ts: number; seq: number; pid: number; shape: number; hot: number[] } {
  const x = Math.imul(i + 1, 2654435761) >>> 0;
  return { ts: 1.7e15 + (x % 1_000_000) + (i % 7 === 0 ? 0.5 : 0), seq: 2 ** 33 + i, pid: x % 13, shape: x % 5, hot: [x % 1000, (x >>> 10) % 7] };
}

function expectColumns(c: RowColumns, n: number): void {
  expect(c.length).toBe(n);
  for (const col of [c.ts.v, c.seq, c.pid, c.shape, ...c.hot]) expect(col.length).toBe(n);
  for (let i = 0; i < n; i++) {
    const r = row(i);
    if (c.ts.at(i) !== r.ts || c.ts.v[i] !== r.ts || c.seq[i] !== r.seq || c.pid[i] !== r.pid || c.shape[i] !== r.shape ||
      c.hot[0]![i] !== r.hot[0] || c.hot[1]![i] !== r.hot[1]) {
      expect({ i, ts: c.ts.v[i], seq: c.seq[i], pid: c.pid[i], shape: c.shape[i], hot: c.hot.map((h) => h[i]) }).toEqual({ i, ...r });
    }
  }
}

describe('row columns', () => {
  it('hold every pushed value, as JS arrays up to TYPED_FROM rows and typed arrays (grown twice over) after', () => {
    const c = new RowColumns(2);
    let n = 0;
    const pushTo = (m: number): void => { for (; n < m; n++) { const r = row(n); c.push(r.ts, r.seq, r.pid, r.shape, r.hot); } };
    pushTo(1000);
    expect(Array.isArray(c.pid)).toBe(true);
    expect(c.residentBytes).toBe(1000 * 8 * (4 + 2));
    expectColumns(c, 1000);
    pushTo(TYPED_FROM - 1);
    expect(Array.isArray(c.seq)).toBe(true);
    // A reader holding the JS columns keeps its rows when they move to typed arrays (never truncated): the
    // arrays took the push that moved them, and no other after it.
    const heldJs = c.pid, heldTs = c.ts;
    pushTo(TYPED_FROM + 10);
    expect(heldJs.length).toBe(TYPED_FROM);
    expect(heldTs.length).toBe(TYPED_FROM);
    expect(heldJs[TYPED_FROM - 1]).toBe(row(TYPED_FROM - 1).pid);
    expect(heldTs.at(0)).toBe(row(0).ts);
    expect(c.ts.v).toBeInstanceOf(Float64Array);
    expect(c.pid).toBeInstanceOf(Uint32Array);
    expectColumns(c, TYPED_FROM + 10);
    expect(c.residentBytes).toBe((TYPED_FROM + 10) * (8 + 8 + 4 + 4 + 4 * 2));
    // Views held by a reader keep what they showed; new reads see the new rows.
    const held = c.pid;
    pushTo(4 * TYPED_FROM + 3);
    expect(held.length).toBe(TYPED_FROM + 10);
    expect(held[TYPED_FROM - 1]).toBe(row(TYPED_FROM - 1).pid);
    expect(c.residentBytes).toBe((4 * TYPED_FROM + 3) * (8 + 8 + 4 + 4 + 4 * 2));
    expectColumns(c, 4 * TYPED_FROM + 3);
  });

  it('made as big as the seal bound at once, and grown past it all the same', () => {
    const c = new RowColumns(2, 3 * TYPED_FROM);
    for (let i = 0; i < 7 * TYPED_FROM; i++) { const r = row(i); c.push(r.ts, r.seq, r.pid, r.shape, r.hot); }
    expectColumns(c, 7 * TYPED_FROM);
  });

  it('remap a hot column in place, in either form', () => {
    for (const rows of [500, TYPED_FROM + 500]) {
      const c = new RowColumns(2);
      for (let i = 0; i < rows; i++) { const r = row(i); c.push(r.ts, r.seq, r.pid, r.shape, r.hot); }
      c.remapHot(0, (id) => id + 1);
      for (let i = 0; i < rows; i += 97) {
        expect(c.hot[0]![i]).toBe(row(i).hot[0]! + 1);
        expect(c.hot[1]![i]).toBe(row(i).hot[1]);
      }
    }
  });
});

describe('an open segment past TYPED_FROM rows', () => {
  const N = TYPED_FROM + 20_000;
  function big(): OpenSegment {
    const seg = new OpenSegment(2);
    for (let i = 0; i < N; i++) {
      const r = row(i);
      seg.append(r.ts, r.seq, r.pid, `{"i":${i}}`, i % 3 === 0 ? `{"x":${i}}` : null, r.hot, r.shape);
    }
    return seg;
  }

  it('orders, purges, drops projects and seals as its rows say', () => {
    const seg = big();
    expect(seg.n).toBe(N);
    expect(seg.pid).toBeInstanceOf(Uint32Array);
    const rows = Array.from({ length: N }, (_, i) => row(i));
    const want = rows.map((_, i) => i).sort((a, b) => rows[a]!.ts - rows[b]!.ts || a - b);
    expect(Array.from(seg.byTs())).toEqual(want);

    const w = 1.7e15 + 500_000;
    const kept = rows.flatMap((r, i) => (r.ts >= w ? [i] : []));
    const purged = purgeOpen(seg, w);
    expect(purged.n).toBe(kept.length);
    kept.forEach((i, k) => {
      if (k % 101 !== 0) return;
      expect([purged.ts.at(k), purged.seq[k], purged.pid[k], purged.shape[k], purged.hot[0]![k], purged.json(k)])
        .toEqual([rows[i]!.ts, rows[i]!.seq, rows[i]!.pid, rows[i]!.shape, rows[i]!.hot[0], `{"i":${i}}`]);
    });
    expect(seg.hide(w)).toBe(N - kept.length);

    const other = openWithoutProjects(seg, new Set([0, 1, 2]));
    expect(other.n).toBe(rows.filter((r) => r.pid > 2).length);

    const sealed = sealOpen(seg, w)!;
    expect(sealed.n).toBe(kept.length);
    // Sealed in (pid, ts, seq) order.
    const order = [...kept].sort((a, b) => rows[a]!.pid - rows[b]!.pid || rows[a]!.ts - rows[b]!.ts || a - b);
    for (let k = 0; k < order.length; k += 89) {
      const i = order[k]!;
      expect([sealed.ts.at(k), sealed.seqBase + sealed.seq[k]!, sealed.pid[k], sealed.shape[k], sealed.json(k)])
        .toEqual([rows[i]!.ts, rows[i]!.seq, rows[i]!.pid, rows[i]!.shape, `{"i":${i}}`]);
    }
  });
});
