// Huge-page advice for big buffers (the addon's adviseHugePages, store/big-buffer.ts's allocBig): what it
// advises (only whole 2 MiB pages inside the buffer), that the kernel then sees that memory as eligible for
// transparent huge pages, and that it refuses what is not bytes.

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INGEST_ADDON } from '../../src/store/native-ingest.ts';
import { HUGE_ADVICE_MIN_BYTES, allocBig } from '../../src/store/big-buffer.ts';

const MiB = 1024 * 1024;
const THP = '/sys/kernel/mm/transparent_hugepage/enabled';
/** The kernel's THP mode ("always", "madvise", "never"), or null for a kernel without THP (madvise then refuses). */
const thpMode = existsSync(THP) ? /\[(\w+)\]/.exec(readFileSync(THP, 'utf8'))![1]! : null;

/** Sizes (kB) of this process's mappings that the kernel reports eligible for huge pages (smaps' THPeligible). */
function eligibleMappingsKb(): number[] {
  const out: number[] = [];
  let size = 0;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const m = /^Size:\s+(\d+) kB/.exec(line);
    if (m) size = Number(m[1]);
    if (/^THPeligible:\s+1/.test(line)) out.push(size);
  }
  return out;
}

describe('adviseHugePages', () => {
  it('advises the whole 2 MiB pages inside a big buffer, and the kernel then counts that range eligible', () => {
    const buf = Buffer.allocUnsafeSlow(8 * MiB);
    const advised = INGEST_ADDON.adviseHugePages(buf);
    if (thpMode === null) {
      expect(advised).toBe(0);
      return;
    }
    // 8 MiB at any page alignment holds three or four whole, aligned 2 MiB pages.
    expect([6 * MiB, 8 * MiB]).toContain(advised);
    // The advice splits the buffer's mapping: its advised part is a mapping of its own, eligible unless THP is off.
    expect(eligibleMappingsKb().includes(advised / 1024)).toBe(thpMode !== 'never');
    buf.fill(0x5a);
    expect(buf.every((b) => b === 0x5a)).toBe(true);
  });

  it('advises nothing where no whole 2 MiB page fits', () => {
    expect(INGEST_ADDON.adviseHugePages(Buffer.allocUnsafeSlow(MiB))).toBe(0);
    expect(INGEST_ADDON.adviseHugePages(new Uint8Array(0))).toBe(0);
    // A 2 MiB view into a bigger buffer is aligned to 2 MiB only by chance: at most one page, never more than it holds.
    const view = Buffer.allocUnsafeSlow(4 * MiB).subarray(12_345, 12_345 + 2 * MiB);
    expect([0, 2 * MiB]).toContain(INGEST_ADDON.adviseHugePages(view));
  });

  it('refuses what is not a Uint8Array', () => {
    expect(() => INGEST_ADDON.adviseHugePages(new Float64Array(4) as unknown as Uint8Array)).toThrow(TypeError);
    expect(() => INGEST_ADDON.adviseHugePages('bytes' as unknown as Uint8Array)).toThrow(TypeError);
    expect(() => (INGEST_ADDON.adviseHugePages as () => number)()).toThrow(TypeError);
  });
});

describe('allocBig', () => {
  it('gives a buffer of the size asked for, advised into huge pages from HUGE_ADVICE_MIN_BYTES', () => {
    const small = allocBig(HUGE_ADVICE_MIN_BYTES - 1);
    expect(small.length).toBe(HUGE_ADVICE_MIN_BYTES - 1);
    const big = allocBig(12 * MiB);
    expect(big.length).toBe(12 * MiB);
    const sizes = eligibleMappingsKb();
    // 12 MiB holds five or six whole 2 MiB pages: one eligible mapping of that size.
    expect(sizes.some((kb) => kb === 10 * 1024 || kb === 12 * 1024)).toBe(thpMode !== null && thpMode !== 'never');
    big.fill(7, 0, 4096);
    small.fill(9, 0, 16);
    expect(big[4095]).toBe(7);
    expect(small[15]).toBe(9);
  });
});
