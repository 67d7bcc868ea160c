// Where `ringql query` prints a result's body as it is made: its chunks go out as the bytes they are (no
// string between), and a chunk whose bytes have been written is given back to the body pool for the next.

import { StringDecoder } from 'node:string_decoder';
import { recycleBody } from '../core/body-pool.ts';
import type { BodyStream } from '../exec/body-stream.ts';
import type { OutputFormat } from '../exec/sinks/row-sink.ts';

/** Where the CLI's output goes: text, and (when it can take them) body bytes. */
export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  /** Resolves once `out` can take more (stdout's backpressure); absent: at once. */
  outReady?: () => Promise<void>;
  /**
   * Writes body bytes as they are; `written` is called once nothing holds them any more (their memory
   * may then be reused). Absent: bodies go to `out` as text.
   */
  outBytes?: (bytes: Buffer, written: () => void) => void;
}

/**
 * A result's body as it is made: large bodies leave in chunks (the HTTP path's sinks and chunk sizes), so
 * printing 100k rows never holds them all. Written as bytes, a 1 MiB chunk costs no 1-2 MiB string and no
 * second Buffer for stdout, and its memory is the next chunk's (a fresh one each time stayed resident until
 * a full GC: tens of MiB over 100k rows). Through `out`, UTF-8 split across chunks is kept whole.
 */
export class BodyPrinter implements BodyStream {
  private readonly decoder = new StringDecoder('utf8');
  constructor(private readonly io: Io) {}
  check(): void {}

  /** A streamed chunk: nothing else holds it (an answer that may be cached is never streamed). */
  async push(chunk: Buffer): Promise<void> {
    if (this.io.outBytes) this.io.outBytes(chunk, () => recycleBody(chunk));
    else this.io.out(this.decoder.write(chunk));
    await this.io.outReady?.();
  }

  /** The body's last piece (all of it when nothing was streamed); JSON gets a final newline. */
  end(last: Buffer, format: OutputFormat): void {
    if (this.io.outBytes) {
      // Not given back: an endpoint's whole answer may be the result cache's.
      this.io.outBytes(last, () => {});
      if (format === 'json') this.io.out('\n');
      return;
    }
    this.io.out(this.decoder.write(last) + this.decoder.end() + (format === 'json' ? '\n' : ''));
  }
}
