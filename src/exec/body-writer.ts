// Builds a response body as UTF-8 bytes: pieces (stored row JSON, rendered rows) are collected, then
// written once into one exactly-sized Buffer (V8 encodes one-byte strings at memcpy speed). No joined
// string is built, and uWebSockets.js sends the bytes without another UTF-8 conversion.

export class BodyWriter {
  private readonly parts: string[] = [];

  /** Appends `s` (written as UTF-8 by finish). */
  write(s: string): void {
    this.parts.push(s);
  }

  /** The whole body; the writer must not be used afterwards. */
  finish(): Buffer {
    const parts = this.parts;
    let n = 0;
    for (let i = 0; i < parts.length; i++) n += Buffer.byteLength(parts[i]!, 'utf8');
    const out = Buffer.allocUnsafe(n);
    let at = 0;
    for (let i = 0; i < parts.length; i++) at += out.write(parts[i]!, at, 'utf8');
    return out;
  }
}
