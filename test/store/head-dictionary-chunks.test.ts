// Issue 15: a checkpoint's head part reads each hot dictionary value by value from its packed form (a
// block at a time) instead of decoding every value into one heap array first, and writes the string bytes
// as zstd frames. The chunks must be the format's: kinds, each string's UTF-8 length, the strings' bytes in
// id order (compressed), the numbers; they decode back, and a head written before (plain bytes) still does.

import { describe, expect, it } from 'vitest';
import { Decompressor } from 'zstd-napi';
import { PackedHotDict } from '../../src/store/hot-dict.ts';
import { INEXACT, type HotValue } from '../../src/store/hot-paths.ts';
import { OpenSegment } from '../../src/store/open-segment.ts';
import { decodeHead, encodeHead, type HeadState } from '../../src/store/source-image.ts';
import type { SchemaImage } from '../../src/store/schema-image.ts';

const K_NULL = 0, K_INEXACT = 1, K_STRING = 2, K_NUMBER = 3, K_TRUE = 4, K_FALSE = 5;

/** The dictionary chunks as the format defines them, built the plain way (all values at once). */
function reference(values: readonly HotValue[]): Buffer[] {
  const kinds: number[] = [], lens: number[] = [], strs: Buffer[] = [], nums: number[] = [];
  for (const v of values) {
    if (v === null) kinds.push(K_NULL);
    else if (v === INEXACT) kinds.push(K_INEXACT);
    else if (typeof v === 'string') { kinds.push(K_STRING); const b = Buffer.from(v, 'utf8'); lens.push(b.length); strs.push(b); }
    else if (typeof v === 'number') { kinds.push(K_NUMBER); nums.push(v); }
    else kinds.push(v ? K_TRUE : K_FALSE);
  }
  // Array chunks: a kind byte (Uint8Array 0, Uint32Array 4, Float64Array 7 in image-io's KINDS), then the elements little-endian.
  const typed = (kind: number, a: Uint8Array | Uint32Array | Float64Array): Buffer => Buffer.concat([Buffer.from([kind]), Buffer.from(a.buffer, a.byteOffset, a.byteLength)]);
  return [typed(KIND.u8, Uint8Array.from(kinds)), typed(KIND.u32, Uint32Array.from(lens)), Buffer.concat(strs), typed(KIND.f64, Float64Array.from(nums))];
}

/** image-io's kind bytes, read off encodings of known arrays (so the test does not restate the table). */
const KIND = { u8: 0, u32: 0, f64: 0 };

function state(dict: PackedHotDict | readonly HotValue[]): HeadState {
  return {
    hotKeys: ['metadata.request.url'], wm: -Infinity, seq: 0, evictedRows: 0, droppedRows: 0, hotEpoch: 0, projectNames: [],
    hotValues: [dict], schema: { fields: [] } as unknown as SchemaImage, codecs: [], current: null, codecHasDict: false,
  };
}

describe('a head part\'s hot dictionaries', () => {
  it('are written value by value from the packed dictionary, in the format\'s bytes, and decode back', () => {
    // Values past several 1 MiB pieces of string bytes (and one string longer than a piece), every kind, UTF-8 of 2-4 bytes.
    const values: HotValue[] = [null, INEXACT];
    for (let i = 0; i < 40_000; i++) values.push(`https://proj${i % 97}.supabase.co/rest/v1/todos?select=*&id=eq.${i}`);
    values.push(12.5, true, false, -0.25, 'héllo → wörld ✓ 🙂', 'x'.repeat(1_500_000), '', 7);
    const dict = new PackedHotDict();
    for (const v of values.slice(2)) dict.append(v);
    expect(dict.length).toBe(values.length);

    const open = new OpenSegment(1, 64);
    const chunks = encodeHead(state(dict), open);
    // The meta JSON chunk first, then the dictionary's four.
    const dictChunks = chunks.slice(1, 5);
    const kindByte = (c: Buffer): number => c[0]!;
    KIND.u8 = kindByte(dictChunks[0]!); KIND.u32 = kindByte(dictChunks[1]!); KIND.f64 = kindByte(dictChunks[3]!);
    expect(new Set([KIND.u8, KIND.u32, KIND.f64]).size).toBe(3);
    const ref = reference(values);
    for (const k of [0, 1, 3]) expect(dictChunks[k]!.equals(ref[k]!)).toBe(true);
    const text = new Decompressor().decompress(dictChunks[2]!);
    expect(text.equals(ref[2]!)).toBe(true);
    // Compressed: the ~3.2 MB of URLs (and the 1.5 MB run of one letter) take far less.
    expect(dictChunks[2]!.length).toBeLessThan(ref[2]!.length / 4);
    // The meta JSON no longer carries the values (they were once written there too).
    expect(chunks[0]!.length).toBeLessThan(2000);
    // The same bytes from plain values, and the values back from the bytes.
    expect(encodeHead(state(values), open).slice(1, 5).every((c, k) => c.equals(dictChunks[k]!))).toBe(true);
    expect(decodeHead(chunks).hotValues[0]).toEqual(values);

    // A head written before (no dictZstd in its meta, plain string bytes) decodes to the same values.
    const meta = JSON.parse(chunks[0]!.toString('utf8')) as Record<string, unknown>;
    expect(meta.dictZstd).toBe(true);
    delete meta.dictZstd;
    const oldHead = [Buffer.from(JSON.stringify(meta)), ...chunks.slice(1)];
    oldHead[3] = text;
    expect(decodeHead(oldHead).hotValues[0]).toEqual(values);
  });

  it('holds an empty string chunk when a dictionary has no strings', () => {
    const chunks = encodeHead(state([null, INEXACT, 3, true]), new OpenSegment(1, 64));
    expect(new Decompressor().decompress(chunks[3]!).length).toBe(0);
    expect(decodeHead(chunks).hotValues[0]).toEqual([null, INEXACT, 3, true]);
  });
});
