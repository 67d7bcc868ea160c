// The addon's CRC-32 (src/native/crc32.c) against node:zlib's, its reference: every length around the
// folding path's 64- and 16-byte steps, unaligned and shared-memory views, seeds chained, both code paths.

import { readFileSync } from 'node:fs';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../src/core/crc32.ts';
import { NATIVE_BYTES } from '../../src/core/native-addon.ts';

/** Deterministic bytes (xorshift), so a failure names a reproducible case. */
function bytes(n: number, seed: number): Buffer {
  const b = Buffer.allocUnsafe(n);
  let x = seed | 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    b[i] = x & 0xff;
  }
  return b;
}

describe('crc32 (the addon) equals node:zlib crc32', () => {
  const data = bytes(3 << 20, 7);

  for (const tablesOnly of [false, true]) {
    it(`${tablesOnly ? 'table' : 'default (PCLMULQDQ where present)'} path: every length 0..1100 at shifting offsets, and seeds`, () => {
      for (let n = 0; n <= 1100; n++) {
        const off = (n * 7) % 61;
        const v = data.subarray(off, off + n);
        const seed = n % 3 === 0 ? 0 : (n * 2654435761) >>> 0;
        expect(NATIVE_BYTES.crc32(v, seed, tablesOnly), `n=${n} off=${off} seed=${seed}`).toBe(zlibCrc32(v, seed));
      }
    });

    it(`${tablesOnly ? 'table' : 'default'} path: big buffers, and a CRC continued piece by piece equals the whole`, () => {
      for (const n of [64 * 1024, 800 * 1024 + 13, 3 << 20]) expect(NATIVE_BYTES.crc32(data.subarray(0, n), 0, tablesOnly)).toBe(zlibCrc32(data.subarray(0, n)));
      let c = 0;
      for (let at = 0; at < data.length; at += 100_003) c = NATIVE_BYTES.crc32(data.subarray(at, Math.min(data.length, at + 100_003)), c, tablesOnly);
      expect(c).toBe(zlibCrc32(data));
    });
  }

  it('reads views of shared memory, and takes seeds as unsigned 32-bit values', () => {
    const sab = new SharedArrayBuffer(10_000);
    const view = new Uint8Array(sab);
    view.set(data.subarray(0, 10_000));
    expect(crc32(view.subarray(3, 9_000))).toBe(zlibCrc32(data.subarray(3, 9_000)));
    const seed = 0xdeadbeef; // top bit set: passed on as an unsigned value, as zlib's own CRCs come
    expect(crc32(data.subarray(5, 500), seed)).toBe(zlibCrc32(data.subarray(5, 500), seed));
    expect(crc32(Buffer.alloc(0))).toBe(0);
  });

  it('takes the PCLMULQDQ path on a CPU that has it (no silent slow path)', () => {
    const flags = /^flags\s*:(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? '';
    const has = / pclmulqdq( |$)/.test(flags) && / sse4_1( |$)/.test(flags);
    expect(NATIVE_BYTES.crc32Clmul).toBe(has && process.arch === 'x64');
  });

  it('refuses what is not a Uint8Array', () => {
    expect(() => NATIVE_BYTES.crc32(new Float64Array(4) as unknown as Uint8Array, 0)).toThrow(/Uint8Array/);
  });
});
