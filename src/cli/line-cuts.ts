// Cuts a file into chunks of about `chunkBytes` that each begin a line, for loaders that read chunks in
// parallel: a cut lies just past the first newline at or after each nominal offset.

import { readSync } from 'node:fs';

const PROBE = 64 * 1024;

/** Offset just past the first newline at or after `from` (`size` when there is none). */
function nextLineStart(fd: number, from: number, size: number): number {
  const buf = Buffer.allocUnsafe(PROBE);
  for (let at = from; at < size; at += PROBE) {
    const got = readSync(fd, buf, 0, Math.min(PROBE, size - at), at);
    if (got === 0) return size;
    const nl = buf.subarray(0, got).indexOf(0x0a);
    if (nl >= 0) return at + nl + 1;
  }
  return size;
}

/** Chunk boundaries [0, c1, ..., size] of an open file of `size` bytes: strictly increasing, each a line start. */
export function lineCuts(fd: number, size: number, chunkBytes: number): number[] {
  const cuts = [0];
  while (cuts[cuts.length - 1]! < size) {
    const last = cuts[cuts.length - 1]!;
    const next = last + chunkBytes >= size ? size : nextLineStart(fd, last + chunkBytes - 1, size);
    cuts.push(next);
  }
  return cuts;
}
