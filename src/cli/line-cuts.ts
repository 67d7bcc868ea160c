// Cuts a file into chunks of about `chunkBytes` that each begin a line, for loaders that read chunks in
// parallel: a cut lies just past the first newline at or after each nominal offset.

import { readSync } from 'node:fs';

/**
 * The first read at a nominal offset: a line or two of log events. Reads grow by doubling while they find
 * no newline, up to MAX_PROBE, and go on in reads of that size through a longer line. (One 64 KiB read into a
 * fresh buffer per cut was ~35 ms of a 1 GB file's start: bench/CLI.md round 14.)
 */
const FIRST_PROBE = 4096;
const MAX_PROBE = 64 * 1024;

/** Offset just past the first newline at or after `from` (`size` when there is none), reading into `scratch`. */
function nextLineStart(fd: number, from: number, size: number, scratch: { buf: Buffer }): number {
  for (let at = from, want = FIRST_PROBE; at < size; want = Math.min(2 * want, MAX_PROBE)) {
    if (scratch.buf.length < want) scratch.buf = Buffer.allocUnsafe(want);
    const got = readSync(fd, scratch.buf, 0, Math.min(want, size - at), at);
    if (got === 0) return size;
    const nl = scratch.buf.subarray(0, got).indexOf(0x0a);
    if (nl >= 0) return at + nl + 1;
    at += got;
  }
  return size;
}

/** Chunk boundaries [0, c1, ..., size] of an open file of `size` bytes: strictly increasing, each a line start. */
export function lineCuts(fd: number, size: number, chunkBytes: number): number[] {
  return lineCutsWith(fd, size, chunkBytes, { buf: Buffer.allocUnsafe(FIRST_PROBE) });
}

/** lineCuts reading through `scratch` (tests see how far its buffer grew). */
export function lineCutsWith(fd: number, size: number, chunkBytes: number, scratch: { buf: Buffer }): number[] {
  const cuts = [0];
  while (cuts[cuts.length - 1]! < size) {
    const last = cuts[cuts.length - 1]!;
    const next = last + chunkBytes >= size ? size : nextLineStart(fd, last + chunkBytes - 1, size, scratch);
    cuts.push(next);
  }
  return cuts;
}
