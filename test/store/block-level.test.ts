// Sealed blocks are compressed at the codec's level (block-codec.ts BLOCK_LEVEL, level 1: zstd's fast strategy), hold
// small gateway-log rows in a fraction of their bytes, and decode to the same bytes at any level.

import { describe, expect, it } from 'vitest';
import { BLOCK_LEVEL, BlockCodec } from '../../src/store/block-codec.ts';

/** ~64 KiB of small edge-log-like rows from a seeded generator (ids and addresses random, the rest repeats). */
function rows(): Buffer {
  let a = 7;
  const r = (): number => { a = (a * 1103515245 + 12345) % 2147483648; return a / 2147483648; };
  const hex = (n: number): string => Array.from({ length: n }, () => Math.floor(r() * 16).toString(16)).join('');
  const paths = ['/rest/v1/todos', '/auth/v1/token', '/storage/v1/object/public/a.png', '/functions/v1/hello'];
  let out = '';
  for (let i = 0; out.length < 64 * 1024; i++) {
    const p = paths[Math.floor(r() * paths.length)]!, q = r() < 0.5 ? `?id=eq.${Math.floor(r() * 100000)}` : '';
    out += `{"id":"${hex(8)}-${hex(4)}-${hex(12)}","timestamp":${1794974400000000 + i * 604800},"event_message":"GET | 200 | ${Math.floor(r() * 255)}.${Math.floor(r() * 255)}.1.2 | ${hex(16)} | https://proj0${i % 7}.supabase.co${p}${q}","metadata":[{"request":[{"method":"GET","path":"${p}","url":"https://proj0${i % 7}.supabase.co${p}${q}"}],"response":[{"status_code":200,"origin_time":${Math.floor(r() * 400)}}]}]}{"project":"proj0${i % 7}"}`;
  }
  return Buffer.from(out);
}

describe('sealed block compression level', () => {
  it('is level 1 by default, holds small edge rows in under half their bytes and decodes them exactly', () => {
    const raw = rows();
    const codec = new BlockCodec(null);
    expect(codec.level).toBe(BLOCK_LEVEL);
    expect(BLOCK_LEVEL).toBe(1);
    const z = codec.compress(raw), z9 = new BlockCodec(null, undefined, 9).compress(raw);
    expect(z.length).toBeLessThan(raw.length / 2);
    expect(z9.length).toBeLessThan(z.length);
    expect(codec.decompress(z).equals(raw)).toBe(true);
    expect(codec.decompress(z9).equals(raw)).toBe(true);
  });
});
