// Text encoded to UTF-8 as it is written, into chunk Buffers handed to a BodyWriter a chunk at a time;
// after a take() the chunks are reused, so a streamed body holds at most one take's worth of them.

import type { BodyWriter } from '../body-writer.ts';

/** Largest chunk; a piece that might not fit in one goes to the writer as text. */
export const BYTE_CHUNK = 64 * 1024;
/** The first chunk of a body: small answers (most cached ones) take no 64 KiB allocation; each next one doubles. */
const FIRST_CHUNK = 1024;

export class ByteChunks {
  /** Chunks whose bytes the writer holds (as views) until the next take(). */
  private used: Buffer[] = [];
  private readonly free: Buffer[] = [];
  private cur: Buffer | null = null;
  private at = 0;
  private nextSize = FIRST_CHUNK;

  constructor(private readonly out: BodyWriter) {}

  write(s: string): void {
    // A UTF-16 unit is at most 3 UTF-8 bytes (a surrogate pair, 2 units, is 4).
    const most = s.length * 3;
    if (most > BYTE_CHUNK) {
      this.flush();
      this.out.write(s);
      return;
    }
    if (this.cur === null || this.at + most > this.cur.length) {
      this.flush();
      this.cur = this.chunk(most);
    }
    this.at += this.cur.write(s, this.at, 'utf8');
  }

  /** Bytes in the current chunk, not yet handed to the writer. */
  get pending(): number {
    return this.at;
  }

  /** The writer's take(): everything since the last one, as one Buffer; the chunks are free again. */
  take(): Buffer {
    this.flush();
    const out = this.out.take();
    for (const b of this.used) this.free.push(b);
    this.used = [];
    return out;
  }

  finish(): Buffer {
    this.flush();
    return this.out.finish();
  }

  /** A free chunk that holds `most` bytes, else a new one of the next size. */
  private chunk(most: number): Buffer {
    const free = this.free.pop();
    if (free !== undefined && free.length >= most) return free;
    if (free !== undefined) this.free.push(free);
    const size = Math.max(this.nextSize, most);
    this.nextSize = Math.min(BYTE_CHUNK, size * 2);
    return Buffer.allocUnsafeSlow(size);
  }

  /** Hands the current chunk's bytes to the writer (before the caller writes to it directly). */
  flush(): void {
    const cur = this.cur;
    if (cur === null) return;
    if (this.at > 0) {
      this.out.write(cur.subarray(0, this.at));
      this.used.push(cur);
    } else {
      this.free.push(cur);
    }
    this.cur = null;
    this.at = 0;
  }
}
