// A request body put together from uWS's chunks (body-assembly.ts): with a Content-Length, one buffer of
// exactly that size that alone fills its ArrayBuffer (so it can be transferred); every byte in order either way.

import { describe, expect, it } from 'vitest';
import { BodyAssembly, declaredLength, MIN_ASSEMBLED_BYTES } from '../../src/http/body-assembly.ts';
import { releaseBodySlot } from '../../src/http/body-slots.ts';

/** `n` bytes of a pattern no two neighbouring chunks share (a misplaced chunk changes the result). */
function pattern(n: number): Buffer {
  const b = Buffer.allocUnsafe(n);
  for (let i = 0; i < n; i++) b[i] = (i * 131 + (i >> 8)) & 0xff;
  return b;
}

/** The chunks of `body` cut at `sizes` (repeated), each in an ArrayBuffer of its own as uWS hands them over. */
function cut(body: Buffer, sizes: number[]): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (let at = 0, k = 0; at < body.length; k++) {
    const n = Math.min(sizes[k % sizes.length]!, body.length - at);
    const c = new Uint8Array(n);
    c.set(body.subarray(at, at + n));
    out.push(c.buffer);
    at += n;
  }
  return out;
}

function assemble(declared: number, chunks: ArrayBuffer[], shared = false): Buffer {
  const a = new BodyAssembly(declared, shared);
  for (const c of chunks) a.add(c);
  return a.finish();
}

describe('body assembly', () => {
  const body = pattern(200_003);

  it('with a Content-Length: chunks of odd sizes land in one buffer of exactly that size, its own ArrayBuffer', () => {
    for (const sizes of [[1, 7, 65_537], [4093], [65_536], [200_003], [100_000, 3]]) {
      const out = assemble(body.length, cut(body, sizes));
      expect(out.equals(body)).toBe(true);
      expect(out.byteOffset).toBe(0);
      expect(out.buffer.byteLength).toBe(body.length);
    }
  });

  it('into a shared body slot (copied there natively): chunks of odd sizes land in order, in shared memory', () => {
    for (const sizes of [[1, 7, 65_537], [4093], [200_003], [100_000, 3]]) {
      const out = assemble(body.length, cut(body, sizes), true);
      expect(out.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(out.length).toBe(body.length);
      expect(out.equals(body)).toBe(true);
      releaseBodySlot(out);
    }
  });

  it('a body ending exactly at a chunk boundary, and empty chunks on the way, change nothing', () => {
    const chunks = cut(body, [50_000, 50_000, 100_003]);
    chunks.splice(1, 0, new ArrayBuffer(0));
    chunks.push(new ArrayBuffer(0));
    expect(assemble(body.length, chunks).equals(body)).toBe(true);
  });

  it('more bytes than declared are all kept, in order (joined instead)', () => {
    const out = assemble(body.length - 10, cut(body, [70_001]));
    expect(out.equals(body)).toBe(true);
  });

  it('fewer bytes than declared give just those bytes', () => {
    const out = assemble(body.length + 5, cut(body, [9_999]));
    expect(out.equals(body)).toBe(true);
  });

  it('without a Content-Length (chunked), chunks are joined as before; no body is an empty buffer', () => {
    expect(assemble(0, cut(body, [3, 4096, 65_535])).equals(body)).toBe(true);
    expect(assemble(0, []).length).toBe(0);
  });

  it('declaredLength takes plain decimals within [MIN_ASSEMBLED_BYTES, max] only', () => {
    expect(declaredLength(String(MIN_ASSEMBLED_BYTES), 1 << 20)).toBe(MIN_ASSEMBLED_BYTES);
    expect(declaredLength(String(MIN_ASSEMBLED_BYTES - 1), 1 << 20)).toBe(0);
    expect(declaredLength(String((1 << 20) + 1), 1 << 20)).toBe(0);
    for (const bad of ['', '1e5', '+70000', ' 70000', '0x20000', '70000.0']) expect(declaredLength(bad, 1 << 20)).toBe(0);
  });
});
