// Reads an NDJSON file as raw byte chunks that each end at a line end (bodies for the byte-level
// ingest path, SourceStore.ingestBytes), without a string or object per line.

import { open } from 'node:fs/promises';

/** Chunks of about `chunkBytes` (longer when a line is), each a whole number of lines. */
export async function* ndjsonChunks(path: string, chunkBytes = 4 << 20): AsyncGenerator<Buffer> {
  const fh = await open(path, 'r');
  try {
    let carry = Buffer.alloc(0);
    for (;;) {
      const buf = Buffer.allocUnsafe(carry.length + chunkBytes);
      carry.copy(buf, 0);
      const { bytesRead } = await fh.read(buf, carry.length, chunkBytes, null);
      const filled = carry.length + bytesRead;
      if (bytesRead === 0) {
        if (filled > 0) yield buf.subarray(0, filled);
        return;
      }
      const end = buf.lastIndexOf(10, filled - 1);
      if (end < 0) { carry = Buffer.from(buf.subarray(0, filled)); continue; }
      carry = Buffer.from(buf.subarray(end + 1, filled));
      yield buf.subarray(0, end + 1);
    }
  } finally {
    await fh.close();
  }
}

const PROJECT = Buffer.from('"project":"');

/** Adds the top-level `project` of every line in `chunk` to `counts` (the first occurrence per line). */
export function countProjects(chunk: Buffer, counts: Map<string, number>): number {
  let lines = 0;
  for (let at = 0; at < chunk.length;) {
    const nl = chunk.indexOf(10, at);
    const end = nl < 0 ? chunk.length : nl;
    const p = chunk.indexOf(PROJECT, at);
    if (p >= 0 && p < end) {
      const s = p + PROJECT.length, q = chunk.indexOf(34, s);
      const name = chunk.toString('utf8', s, q);
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    if (end > at) lines++;
    at = end + 1;
  }
  return lines;
}
