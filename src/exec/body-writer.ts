// Builds a response body as UTF-8 bytes: pieces (stored row JSON, rendered rows) are collected, then
// written once into one exactly-sized Buffer. No joined string is built, and uWebSockets.js sends the
// bytes without another UTF-8 conversion.

import { RingqlError } from '../core/errors.ts';
import { takeBodyBuffer } from '../core/body-pool.ts';

/** A response body stops at this size (the HTTP layer and memory both need a bound). */
export const DEFAULT_MAX_RESULT_CHARS = 256 * 1024 * 1024;

/** ASCII text up to this long is stored byte by byte (a call of Buffer.write costs more than that loop). */
const SHORT_ASCII = 16;

export class BodyWriter {
  private readonly parts: (string | Buffer)[] = [];
  private chars = 0;
  private taken = 0;

  /** `maxChars` bounds the body (UTF-16 units or bytes, about the same for JSON text): past it, limit_exceeded. */
  constructor(private readonly maxChars = DEFAULT_MAX_RESULT_CHARS) {}

  /** Appends text (written as UTF-8 by finish) or UTF-8 bytes (copied as they are). */
  write(s: string | Buffer): void {
    this.chars += s.length;
    if (this.chars > this.maxChars) {
      throw new RingqlError('payload_too_large', `The result is larger than ${this.maxChars} characters; select fewer or smaller columns, or fewer rows`, { limit: this.maxChars });
    }
    this.parts.push(s);
  }

  /** Characters (or bytes) written since the last take(). */
  get pending(): number {
    return this.chars - this.taken;
  }

  /** What was written since the last take(), as one Buffer; the size limit keeps counting the whole body. */
  take(): Buffer {
    const out = this.finish();
    this.parts.length = 0;
    this.taken = this.chars;
    return out;
  }

  /** The whole body (or, after take(), the rest of it); the writer must not be used afterwards. */
  finish(): Buffer {
    const parts = this.parts;
    const bytes = new Array<number>(parts.length);
    let n = 0;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      n += bytes[i] = typeof p === 'string' ? Buffer.byteLength(p, 'utf8') : p.length;
    }
    const out = takeBodyBuffer(n);
    let at = 0;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      // TypedArray set is a plain memcpy; Buffer.copy's argument handling cost 4x as much per row here.
      if (typeof p !== 'string') { out.set(p, at); at += p.length; continue; }
      // As many UTF-8 bytes as characters means pure ASCII, whose Latin-1 bytes are the same: a
      // straight copy, 3-4x cheaper than UTF-8 encoding; a separator of a few bytes is cheaper still by hand.
      if (bytes[i] !== p.length) at += out.write(p, at, 'utf8');
      else if (p.length <= SHORT_ASCII) for (let k = 0; k < p.length; k++) out[at++] = p.charCodeAt(k);
      else at += out.write(p, at, 'latin1');
    }
    return out;
  }
}
