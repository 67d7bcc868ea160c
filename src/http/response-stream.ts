// The BodyStream of one exchange (issue 18): the engine's chunks go to the uWS response with its
// backpressure; counters say how many streams wait on a slow client and how many bytes went out.

import type { BodyStream, OutputFormat } from '../endpoints/service-types.ts';
import { ClientAborted, type Exchange } from './exchange.ts';
import type { Reply } from './reply.ts';

/** Process-wide streaming counters (tests, /health-style inspection). */
export const streamCounters = { started: 0, waiting: 0, bytes: 0 };

/** `head` gives the response head of a streamed answer of each format (status 200; its body is unused). */
export function responseStream(ex: Exchange, head: (format: OutputFormat) => Reply): BodyStream {
  let started = false;
  return {
    check(): void {
      if (ex.aborted) throw new ClientAborted();
    },
    async push(chunk: Buffer, format: OutputFormat): Promise<void> {
      if (!started) streamCounters.started++;
      const pending = ex.writeChunk(chunk, head(format));
      started = true;
      streamCounters.bytes += chunk.length;
      streamCounters.waiting++;
      try {
        await pending;
      } finally {
        streamCounters.waiting--;
      }
    },
  };
}
