// An open segment of empty rows (the CLI's column-only load keeps no row bytes) holds no offset columns
// until a row with bytes comes (a body the reference path took): then every row reads as before.

import { describe, expect, it } from 'vitest';
import { OpenSegment } from '../../src/store/open-segment.ts';

/** `n` empty rows as the column-only load pushes them: a zero-length run, then rows at offset 0. */
function pushEmpty(seg: OpenSegment, n: number, ts0: number): void {
  const base = seg.takeRows(Buffer.alloc(0), 0, 0);
  for (let k = 0; k < n; k++) seg.pushRow(ts0 + k, ts0 + k, k % 2, base, base, [], 0);
}

describe('open segment: empty rows', () => {
  it('reads empty rows as empty, and rows with bytes appended after them as written', () => {
    const seg = new OpenSegment(0);
    pushEmpty(seg, 3, 10);
    expect(seg.n).toBe(3);
    expect(seg.bytes).toBe(0);
    for (let r = 0; r < 3; r++) {
      expect(seg.json(r)).toBe('');
      expect(seg.extra(r)).toBeNull();
      expect(seg.jsonBytes(r).length).toBe(0);
      expect(seg.jsonBytesOf(r) + seg.extraBytesOf(r)).toBe(0);
    }
    expect(seg.rowBytes().length).toBe(0);
    expect(seg.gatherRows(Uint32Array.of(2, 0, 1), 3, Buffer.alloc(4), 0)).toBe(0);

    // A declined body's rows come with their bytes (the reference path's append), then more empty rows.
    seg.append(20, 20, 1, '{"a":"é"}', '{"x":1}', []);
    pushEmpty(seg, 2, 30);
    seg.append(40, 40, 0, '{"b":2}', null, []);
    expect(seg.n).toBe(7);
    expect(seg.json(3)).toBe('{"a":"é"}');
    expect(seg.extra(3)).toBe('{"x":1}');
    expect(seg.json(6)).toBe('{"b":2}');
    expect(seg.extra(6)).toBeNull();
    for (const r of [0, 1, 2, 4, 5]) {
      expect(seg.json(r)).toBe('');
      expect(seg.extra(r)).toBeNull();
      expect(seg.jsonBytesOf(r) + seg.extraBytesOf(r)).toBe(0);
    }
    const whole = Buffer.from('{"a":"é"}{"x":1}{"b":2}');
    expect(seg.bytes).toBe(whole.length);
    expect(seg.rowBytes().equals(whole)).toBe(true);
    const out = Buffer.alloc(whole.length);
    expect(seg.gatherRows(Uint32Array.of(6, 0, 3, 5), 4, out, 0)).toBe(whole.length);
    expect(out.toString()).toBe('{"b":2}{"a":"é"}{"x":1}');
    expect([...seg.byTs()]).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(seg.pid).toEqual([0, 1, 0, 1, 0, 1, 0]);
  });

  it('copies an empty row out as nothing (appendFrom) and stays without offset columns', () => {
    const src = new OpenSegment(0), dst = new OpenSegment(0);
    pushEmpty(src, 2, 5);
    dst.appendFrom(src, 1, []);
    expect(dst.n).toBe(1);
    expect(dst.bytes).toBe(0);
    expect(dst.json(0)).toBe('');
    expect(dst.ts.at(0)).toBe(6);
  });
});
