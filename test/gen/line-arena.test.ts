// LineArena (src/gen/line-arena.ts): lines come back byte for byte in any order, UTF-8 encoded, with their
// tags, and slabs and handles are reused once their lines are taken.

import { describe, expect, it } from 'vitest';
import { LineArena } from '../../src/gen/line-arena.ts';

const take = (a: LineArena, h: number): string => {
  const out = Buffer.alloc(a.length(h) + 4, 0x2e);
  const n = a.take(h, out, 2);
  expect(out.subarray(0, 2).toString()).toBe('..');
  expect(out.subarray(2 + n).toString()).toBe('..');
  return out.subarray(2, 2 + n).toString('utf8');
};

describe('LineArena', () => {
  it('gives each line back as its UTF-8 bytes, with its tag, in any order', () => {
    const a = new LineArena();
    const lines = ['{"a":1}', '{"city":"Zürich","emoji":"😀"}', '', 'x'.repeat(5000)];
    const hs = lines.map((l, i) => a.put(l, i * 10));
    expect(a.length(hs[1]!)).toBe(Buffer.byteLength(lines[1]!));
    for (const i of [2, 0, 3, 1]) {
      expect(a.tag(hs[i]!)).toBe(i * 10);
      expect(take(a, hs[i]!)).toBe(lines[i]);
    }
  });

  it('keeps held lines intact across many slabs while others are taken and their room reused', () => {
    const a = new LineArena();
    const held = new Map<number, string>();
    const line = (i: number): string => `{"i":${i},"pad":"${'p'.repeat(i % 3000)}"}`;
    // 8,000 lines of up to 3 KB (~12 MB through 1 MiB slabs); every 50th is held to the end, the rest taken soon.
    const recent: [number, string][] = [];
    for (let i = 0; i < 8_000; i++) {
      const l = line(i);
      const h = a.put(l, i);
      if (i % 50 === 0) held.set(h, l);
      else recent.push([h, l]);
      if (recent.length > 300) {
        const [rh, rl] = recent.splice(i % 7, 1)[0]!;
        expect(take(a, rh)).toBe(rl);
      }
    }
    for (const [h, l] of recent) expect(take(a, h)).toBe(l);
    for (const [h, l] of held) expect(take(a, h)).toBe(l);
  });

  it('reuses a taken handle', () => {
    const a = new LineArena();
    const h = a.put('one', 1);
    take(a, h);
    expect(a.put('two', 2)).toBe(h);
  });
});
