// Where a large body goes while it is being made (issue 18): the HTTP layer's response, written in
// chunks with backpressure, so a result is never held whole; a client that goes away stops the run.

import type { OutputFormat } from './sinks/row-sink.ts';

/** A body past this many bytes (UTF-16 units, about the same) after a slice is streamed; smaller ones go whole, as before. */
export const STREAM_START_BYTES = 4 * 1024 * 1024;

export interface BodyStream {
  /** Throws (the HTTP layer's ClientAborted) once the client went away: the run stops at its next slice. */
  check(): void;
  /** Writes the next chunk (the first writes the response head for `format`); resolves when the client can take more. */
  push(chunk: Buffer, format: OutputFormat): Promise<void>;
}
