// Issue 16: writeFileAtomic writes a part file's chunks in gathered writes of up to WRITE_GROUP buffers
// (a big segment's part is thousands of small chunks; one thread-pool write each cost more than the
// bytes), the file's bytes being the chunks in order, and a short write going on from the byte it stopped at.

import { mkdtempSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WRITE_GROUP, writeFileAtomic } from '../../src/durable/atomic-file.ts';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'ringql-atomic-'));

/** FileHandle's prototype (the class itself is not exported by node:fs/promises). */
async function fileHandleProto(dir: string): Promise<{ write: unknown; writev: (this: unknown, b: NodeJS.ArrayBufferView[], p?: number) => Promise<{ bytesWritten: number }> }> {
  const fh = await open(join(dir, 'probe'), 'w');
  const proto = Object.getPrototypeOf(fh) as Awaited<ReturnType<typeof fileHandleProto>>;
  await fh.close();
  return proto;
}

/** `n` chunks of different sizes (some empty), each filled with its own byte. */
function chunks(n: number): Buffer[] {
  return Array.from({ length: n }, (_, i) => Buffer.alloc(i % 7 === 3 ? 0 : 1 + (i % 13), i & 0xff));
}

afterEach(() => { vi.restoreAllMocks(); });

describe('writeFileAtomic, gathered writes', () => {
  it('writes 2,500 chunks in ceil(2500 / WRITE_GROUP) gathered writes and no single ones, bytes in order', async () => {
    const dir = tmp();
    const proto = await fileHandleProto(dir);
    const writev = vi.spyOn(proto, 'writev');
    const write = vi.spyOn(proto as { write: () => unknown }, 'write');
    const parts = chunks(2500);
    await writeFileAtomic(join(dir, 'f.part'), parts);
    expect(write).not.toHaveBeenCalled();
    expect(writev).toHaveBeenCalledTimes(Math.ceil(2500 / WRITE_GROUP));
    expect(readFileSync(join(dir, 'f.part')).equals(Buffer.concat(parts))).toBe(true);
  });

  it('goes on from the first byte not written after a short write', async () => {
    const dir = tmp();
    const proto = await fileHandleProto(dir);
    const real = proto.writev;
    let calls = 0;
    // The first gathered write takes 12 bytes only: chunks of 1, 2, 3, 0 and 5 bytes, and 1 of the next (6 bytes).
    vi.spyOn(proto, 'writev').mockImplementation(async function (this: unknown, bufs: NodeJS.ArrayBufferView[], pos?: number) {
      if (calls++ > 0) return real.call(this, bufs, pos);
      const all = Buffer.concat(bufs.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)));
      return real.call(this, [all.subarray(0, 12)], pos);
    });
    const parts = chunks(40);
    await writeFileAtomic(join(dir, 'g.part'), parts);
    expect(calls).toBe(2);
    expect(readFileSync(join(dir, 'g.part')).equals(Buffer.concat(parts))).toBe(true);
  });
});
