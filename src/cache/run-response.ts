// The answer to one request as the result cache gives it: body, cache status and age, timings and the
// rows read. endpoints/service-types.ts re-exports it for the service's callers.

import type { OutputFormat } from '../exec/sinks/row-sink.ts';

export interface RunResponse {
  /** The full body as UTF-8 bytes, ready to write: JSON `{"result":[...]}` or the format asked for. */
  body: Buffer;
  /** The body's format; absent = json. */
  format?: OutputFormat;
  rowCount: number;
  truncated: boolean;
  cache: 'HIT' | 'MISS';
  cacheKind?: 'result' | 'bucket';
  /** Seconds since the answer was computed. */
  ageSeconds: number;
  /** Server-Timing entries, e.g. [{name:'plan', ms:0.1}, {name:'exec', ms:2.3}]. */
  timings: { name: string; ms: number }[];
  /** Stored rows read to make this answer (0 for an answer taken from a cache as it was); absent = 0. */
  rowsScanned?: number;
  /** The body went out through `stream` already; `body` is only its last piece. */
  streamed?: boolean;
  /**
   * The body was produced with redaction on (endpoint `redact_pii` or the header): the service sets
   * it to its effective flag, so the HTTP layer need not scan an already redacted body again.
   */
  redacted?: boolean;
  /** The endpoint's name (however the request named it), for per-endpoint metrics. */
  endpoint?: string;
  /** Nothing keeps `body` (computed for this request only): once written, its memory may be reused (core/body-pool.ts). */
  recyclable?: boolean;
}
