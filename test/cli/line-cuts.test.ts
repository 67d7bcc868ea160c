// The chunk boundaries of the CLI's parallel loads (line-cuts.ts) against boundaries computed over the whole
// file in memory: lines shorter and far longer than a read, no newline at the end, none at all.

import { afterAll, describe, expect, it } from 'vitest';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lineCuts, lineCutsWith } from '../../src/cli/line-cuts.ts';

const dir = mkdtempSync(join(tmpdir(), 'ringql-line-cuts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The expected cuts: just past the first newline at or after each nominal offset, from the bytes in memory. */
function expectedCuts(bytes: Buffer, chunkBytes: number): number[] {
  const cuts = [0];
  while (cuts[cuts.length - 1]! < bytes.length) {
    const last = cuts[cuts.length - 1]!;
    if (last + chunkBytes >= bytes.length) { cuts.push(bytes.length); continue; }
    const nl = bytes.indexOf(0x0a, last + chunkBytes - 1);
    cuts.push(nl < 0 ? bytes.length : nl + 1);
  }
  return cuts;
}

function cutsOf(bytes: Buffer, chunkBytes: number): number[] {
  const file = join(dir, `f-${Math.random().toString(36).slice(2)}.ndjson`);
  writeFileSync(file, bytes);
  const fd = openSync(file, 'r');
  try {
    return lineCuts(fd, bytes.length, chunkBytes);
  } finally {
    closeSync(fd);
  }
}

/** Lines of pseudo-random lengths in [1, maxLine), each ending in a newline unless `openEnd`. */
function lines(count: number, maxLine: number, seed: number, openEnd = false): Buffer {
  let x = seed;
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    parts.push('x'.repeat(1 + (x % (maxLine - 1))));
  }
  return Buffer.from(parts.join('\n') + (openEnd ? '' : '\n'));
}

describe('lineCuts', () => {
  it('cuts just past the first newline at or after each nominal offset, for short and long lines', () => {
    for (const [count, maxLine, chunk] of [[2000, 300, 10_000], [300, 3000, 64 * 1024], [40, 200_000, 64 * 1024], [8, 1_000_000, 100_000]] as const) {
      const bytes = lines(count, maxLine, count + maxLine);
      const cuts = cutsOf(bytes, chunk);
      expect(cuts).toEqual(expectedCuts(bytes, chunk));
      for (const c of cuts.slice(1, -1)) expect(bytes[c - 1]).toBe(0x0a);
    }
  });

  it('a file without a final newline, and one without any, end at their size', () => {
    const open = lines(500, 400, 7, true);
    expect(cutsOf(open, 5000)).toEqual(expectedCuts(open, 5000));
    const none = Buffer.alloc(300_000, 0x61);
    expect(cutsOf(none, 10_000)).toEqual([0, none.length]);
    expect(cutsOf(Buffer.alloc(0), 10_000)).toEqual([0]);
  });

  it('reads a line far longer than a read in reads of at most 64 KiB (no buffer as big as the line)', () => {
    const bytes = Buffer.concat([Buffer.alloc(3_000_000, 0x61), Buffer.from('\nshort\n')]);
    const file = join(dir, 'long-line.ndjson');
    writeFileSync(file, bytes);
    const fd = openSync(file, 'r');
    try {
      const scratch = { buf: Buffer.alloc(0) };
      expect(lineCutsWith(fd, bytes.length, 10_000, scratch)).toEqual(expectedCuts(bytes, 10_000));
      expect(scratch.buf.length).toBeLessThanOrEqual(64 * 1024);
    } finally {
      closeSync(fd);
    }
  });
});
