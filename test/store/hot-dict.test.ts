// The packed hot dictionary against a plain Map model: ids in first-seen order, values read back exactly
// (compressed blocks, lone surrogates, numbers, booleans) across block boundaries, growth and compaction.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DICT_BLOCK, PackedHotDict, RECENT, hashCapacityAfter } from '../../src/store/hot-dict.ts';
import { HotDictionaries } from '../../src/store/hot-dictionaries.ts';
import { INEXACT, INEXACT_ID, type HotValue } from '../../src/store/hot-paths.ts';

const value: fc.Arbitrary<HotValue> = fc.oneof(
  { weight: 6, arbitrary: fc.nat(400).map((n) => `https://p${n % 7}.supabase.co/rest/v1/t?id=eq.${n}`) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null), fc.constant(INEXACT)) },
);

/** The reference: a Map (SameValueZero, as JS Maps compare) and an array of values by id. */
function model(): { ids: Map<HotValue, number>; values: HotValue[]; idOf(v: HotValue): number } {
  const ids = new Map<HotValue, number>([[null, 0], [INEXACT, INEXACT_ID]]);
  const values: HotValue[] = [null, INEXACT];
  return {
    ids, values, idOf(v) {
      let id = ids.get(v);
      if (id === undefined) { id = values.length; values.push(v); ids.set(v, id); }
      return id;
    },
  };
}

describe('PackedHotDict', () => {
  it('assigns the ids a Map would and reads every value back, across compressed blocks', () => {
    fc.assert(fc.property(fc.array(value, { minLength: 1, maxLength: 1500 }), (vs) => {
      const d = new PackedHotDict(), m = model();
      for (const v of vs) expect(d.idOf(v)).toBe(m.idOf(v));
      expect(d.length).toBe(m.values.length);
      // Read back in a scattered order (the decoded-block cache is direct-mapped), then in id order.
      for (let i = d.length - 1; i >= 0; i -= 3) expect(Object.is(d.get(i), m.values[i]) || d.get(i) === m.values[i]).toBe(true);
      expect(d.toArray()).toEqual(m.values);
      // Lookups after sealing find the old ids (through the hash table and the recent-lookup maps).
      for (const v of vs) expect(d.idOf(v)).toBe(m.ids.get(v));
    }), { numRuns: 40 });
  });

  it('keeps strings UTF-8 cannot (lone surrogates) exact and distinct', () => {
    const d = new PackedHotDict();
    const odd = ['\ud800', '\udc00x', 'a\ud83d', '\ufffd'];
    const ids = odd.map((s) => d.idOf(s));
    for (let i = 0; i < 3 * DICT_BLOCK; i++) d.idOf(`filler ${i}`);
    expect(new Set(ids).size).toBe(4);
    odd.forEach((s, k) => { expect(d.get(ids[k]!)).toBe(s); expect(d.idOf(s)).toBe(ids[k]); });
  });

  it('finds values of blocks long sealed and out of every cache (decoding only the one value)', () => {
    const d = new PackedHotDict();
    const first: HotValue[] = ['a', 2.5, '\ud800lone', true, 'München', -1, '', 'z'.repeat(300)];
    const ids = first.map((v) => d.idOf(v));
    // Past both generations of recent lookups; no get() call, so block 0 is never in the decode cache.
    for (let i = 0; i < 3 * RECENT; i++) d.idOf(`/filler/${i}`);
    const n = d.length;
    first.forEach((v, k) => expect(d.idOf(v)).toBe(ids[k]));
    expect(d.idOf('/filler/5')).toBe(ids[ids.length - 1]! + 6);
    expect(d.length).toBe(n);
    expect(first.map((_, k) => d.get(ids[k]!))).toEqual(first);
  });

  it('holds 100,000 distinct URLs in far fewer bytes than their text', () => {
    const d = new PackedHotDict();
    let text = 0;
    for (let i = 0; i < 100_000; i++) {
      const u = `https://proj${String(i % 1000).padStart(4, '0')}.supabase.co/rest/v1/todos?select=*&id=eq.${i}`;
      text += u.length;
      d.idOf(u);
    }
    expect(d.length).toBe(100_002);
    expect(d.get(77_777)).toBe('https://proj0775.supabase.co/rest/v1/todos?select=*&id=eq.77775');
    // The heap dictionary this replaces held its text plus ~70 bytes per value (string header, array slot,
    // Map entry); this one ~20 bytes per value in all (compressed text, hash, table), plus the bounded maps
    // of recent lookups.
    expect((d.residentBytes - d.recentHeapBytes) / d.length).toBeLessThan(24);
    expect(text / d.length).toBeGreaterThan(60);
    expect(d.recentHeapBytes).toBeLessThanOrEqual(2 * RECENT * (64 + 80));
  });
});

describe('PackedHotDict per-id hash array', () => {
  /** The private per-id hash array (its size is what this test bounds). */
  const hashesOf = (d: PackedHotDict): Uint32Array => (d as unknown as { hashes: Uint32Array }).hashes;

  it('grows by a quarter (at least 1024), so at most ~a fifth of it is ever unused past the first 1024', () => {
    expect(hashCapacityAfter(256)).toBe(1280);
    expect(hashCapacityAfter(4096)).toBe(5120);
    expect(hashCapacityAfter(4_000_001)).toBe(5_000_002);
    fc.assert(fc.property(fc.integer({ min: 1, max: 60_000 }), (n) => {
      const d = new PackedHotDict();
      for (let i = 0; i < n; i++) d.idOf(`v${i}`);
      const cap = hashesOf(d).length;
      // Every id fits, and the array is no bigger than one growth step past the ids it holds.
      expect(cap).toBeGreaterThanOrEqual(d.length);
      expect(cap).toBeLessThanOrEqual(Math.max(256, hashCapacityAfter(d.length)));
      // Lookups across the growth boundaries still find every value's id (ids 0, 1: NULL, INEXACT).
      for (let i = 0; i < n; i += Math.max(1, Math.floor(n / 50))) expect(d.idOf(`v${i}`)).toBe(i + 2);
      expect(d.idOf(`v${n}`)).toBe(n + 2);
    }), { numRuns: 12 });
  });

  it('holds 140,000 values\' hashes in under 0.71 MB of array, not 1 MiB', () => {
    const d = new PackedHotDict();
    for (let i = 0; i < 140_000; i++) d.idOf(`/p/${i}`);
    // Doubling from 256 gave 262,144 entries (1 MiB) here.
    expect(hashesOf(d).byteLength).toBeLessThan(4 * (1.25 * d.length + 1024));
    expect(hashesOf(d).byteLength).toBeLessThan(0.71e6);
  });
});

describe('HotDictionaries over packed dictionaries', () => {
  it('compacts to the ids rows still use, keeping each row\'s value, and restores from a checkpoint', () => {
    fc.assert(fc.property(fc.array(value, { maxLength: 600 }), fc.nat(), (some, seed) => {
      const vs = [...some, ...Array.from({ length: 5000 }, (_, i) => `/filler/${i}`), ...some];
      const d = new HotDictionaries([['request', 'url']]);
      const col = Uint32Array.from(vs, (v) => d.id(0, v));
      const live = col.slice(seed % 100, (seed % 100) + 40);
      const before = Array.from(live, (id) => d.dict('request.url', 't').get(id));
      const old = d.dict('request.url', 't');
      const rows = { hot: [live] };
      d.compact(live.length, [rows]);
      const now = d.dict('request.url', 't');
      expect(now).not.toBe(old);
      expect(now.length).toBeLessThanOrEqual(live.length + 2);
      expect(Array.from(rows.hot[0]!, (id) => now.get(id))).toEqual(before);
      const r = new HotDictionaries([['request', 'url']]);
      r.restore(d.allValues(), d.epoch);
      expect(r.allValues()).toEqual(d.allValues());
      for (const v of before) expect(r.id(0, v)).toBe(d.id(0, v));
    }), { numRuns: 5 });
  });

  it('widens a narrow segment column whose renumbered ids no longer fit its width', () => {
    const d = new HotDictionaries([['request', 'url']]);
    const a = d.id(0, 'A');
    const ids = Array.from({ length: 5000 }, (_, i) => d.id(0, `/v/${i}`));
    // Segment 1 holds 300 later values (16-bit ids), segment 2 only 'A' (an 8-bit column), then open rows.
    const seg1 = { hot: [Uint16Array.from(ids.slice(4000, 4300))] };
    const seg2 = { hot: [Uint8Array.of(a, a)] };
    const open = { hot: [[a, ids[4999]!]] };
    d.compact(304, [seg1, seg2, open]);
    const dict = d.dict('request.url', 't');
    // 'A' is renumbered after the 300 values segment 1 references first: id 302, past what 8 bits hold.
    expect(seg2.hot[0]!.length).toBe(2);
    expect(Array.from(seg2.hot[0]!, (id) => dict.get(id))).toEqual(['A', 'A']);
    expect(Array.from(seg1.hot[0]!, (id) => dict.get(id))).toEqual(Array.from({ length: 300 }, (_, i) => `/v/${4000 + i}`));
    expect(open.hot[0]!.map((id) => dict.get(id))).toEqual(['A', '/v/4999']);
  });
});
