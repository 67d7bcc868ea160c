// A request body put together from uWS's chunks: with a Content-Length, into one buffer of that size
// allocated once (its own ArrayBuffer, or a shared slot the transform thread reads in place), else concatenated.

import { takeBodySlot } from './body-slots.ts';
import { NATIVE_BYTES } from '../core/native-addon.ts';

/** Bodies smaller than this are copied chunk by chunk into Node's pool and joined, as small bodies always were. */
export const MIN_ASSEMBLED_BYTES = 64 * 1024;

/** The declared Content-Length when it is a plain decimal within [MIN_ASSEMBLED_BYTES, maxBytes], else 0 (unknown or small). */
export function declaredLength(header: string, maxBytes: number): number {
  if (!/^[0-9]{1,15}$/.test(header)) return 0;
  const n = Number(header);
  return n >= MIN_ASSEMBLED_BYTES && n <= maxBytes ? n : 0;
}

export class BodyAssembly {
  /** The one buffer while the chunks fit the declared length; null once they did not (or none was declared). */
  private buf: Buffer | null;
  private at = 0;
  private readonly chunks: Buffer[] = [];
  private total = 0;

  /** `shared`: the buffer is a body slot (body-slots.ts) when one fits; whoever reads the body gives it back. */
  constructor(expected: number, shared = false) {
    this.buf = expected > 0 ? (shared ? takeBodySlot(expected) : null) ?? Buffer.allocUnsafeSlow(expected) : null;
  }

  /** Copies a chunk (uWS neuters it once its callback returns). */
  add(chunk: ArrayBuffer): void {
    const n = chunk.byteLength;
    if (n === 0) return;
    this.total += n;
    const buf = this.buf;
    if (buf !== null && this.at + n <= buf.length) {
      // By memcpy: V8 copies into a shared slot by relaxed atomic words (~7 % of the main thread under HTTP ingest).
      NATIVE_BYTES.copyBytes(buf, this.at, chunk);
      this.at += n;
      return;
    }
    if (buf !== null) {
      // More bytes than declared (uWS frames by Content-Length, so this should not happen): joined instead.
      if (this.at > 0) this.chunks.push(buf.subarray(0, this.at));
      this.buf = null;
    }
    this.chunks.push(Buffer.from(new Uint8Array(chunk)));
  }

  /** The whole body. */
  finish(): Buffer {
    if (this.buf !== null) return this.at === this.buf.length ? this.buf : this.buf.subarray(0, this.at);
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.total);
  }
}
