// Issue 16: a checkpoint names each block's codec in every segment part it writes; the name holds the
// CRC-32 of the codec's 128 KiB dictionary, which is computed once per codec, not once per block.

import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BlockCodec } from '../../src/store/block-codec.ts';
import { codecKey } from '../../src/store/source-image.ts';

describe('codecKey', () => {
  it('names a codec by its dictionary checksum, size and block size; a plain codec by its block size', () => {
    const dict = Buffer.alloc(4096, 'ringql dictionary bytes ');
    expect(codecKey(new BlockCodec(dict, 65536))).toBe(`z${crc32(dict).toString(16)}-4096-65536`);
    expect(codecKey(new BlockCodec(null, 1024))).toBe('plain-1024');
  });

  it('reads the dictionary once per codec (a codec never changes its dictionary)', () => {
    const dict = Buffer.alloc(4096, 'abc');
    const c = new BlockCodec(dict, 65536);
    const first = codecKey(c);
    // Changed behind the codec's back only to show the bytes are not read again: the key stays the first one.
    dict.fill(0x7a);
    expect(codecKey(c)).toBe(first);
    // Another codec is read afresh.
    expect(codecKey(new BlockCodec(dict, 65536))).toBe(`z${crc32(dict).toString(16)}-4096-65536`);
  });
});
