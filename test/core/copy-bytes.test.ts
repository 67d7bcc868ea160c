// The addon's copyBytes (a memcpy into any Uint8Array, shared memory included): what it copies, where, and
// that it refuses, copying nothing, what does not fit or is not bytes.

import { describe, expect, it } from 'vitest';
import { NATIVE_BYTES } from '../../src/core/native-addon.ts';

describe('copyBytes', () => {
  const src = Uint8Array.from({ length: 5000 }, (_, i) => (i * 31 + 7) & 0xff);

  it('copies an ArrayBuffer or a Uint8Array view into shared memory at an offset, and nothing else', () => {
    const dst = new Uint8Array(new SharedArrayBuffer(12_000)).fill(0xee);
    expect(NATIVE_BYTES.copyBytes(dst, 100, src.buffer)).toBe(5000);
    expect(Buffer.from(dst.subarray(100, 5100)).equals(Buffer.from(src))).toBe(true);
    expect(NATIVE_BYTES.copyBytes(dst, 7000, src.subarray(1000, 1500))).toBe(500);
    expect(Buffer.from(dst.subarray(7000, 7500)).equals(Buffer.from(src.subarray(1000, 1500)))).toBe(true);
    // Bytes outside the two copies are untouched.
    for (const [a, b] of [[0, 100], [5100, 7000], [7500, 12_000]] as const) expect(dst.subarray(a, b).every((x) => x === 0xee)).toBe(true);
  });

  it('writes into a view of a larger buffer at the view’s own offsets', () => {
    const whole = new Uint8Array(64).fill(1);
    const view = whole.subarray(10, 30);
    NATIVE_BYTES.copyBytes(view, 5, Uint8Array.from([9, 8, 7]));
    expect([...whole.subarray(14, 19)]).toEqual([1, 9, 8, 7, 1]);
  });

  it('refuses, copying nothing, a source that does not fit, and what is not bytes', () => {
    const dst = new Uint8Array(100).fill(3);
    expect(() => NATIVE_BYTES.copyBytes(dst, 90, src.subarray(0, 11))).toThrow(RangeError);
    expect(() => NATIVE_BYTES.copyBytes(dst, -1, src.subarray(0, 1))).toThrow(RangeError);
    expect(dst.every((x) => x === 3)).toBe(true);
    expect(NATIVE_BYTES.copyBytes(dst, 100, new ArrayBuffer(0))).toBe(0);
    expect(() => NATIVE_BYTES.copyBytes(new Uint16Array(4) as unknown as Uint8Array, 0, src)).toThrow(/Uint8Array/);
    expect(() => NATIVE_BYTES.copyBytes(dst, 0, new Float32Array(2) as unknown as Uint8Array)).toThrow(/ArrayBuffer or a Uint8Array/);
  });
});
