// The bounds of live subscriptions (SPEC §3): subscriptions per token, bytes a consumer may leave
// unread, how long a socket may wait for its token, and the accepted update intervals.

import { RingqlError } from '../../core/errors.ts';

export interface LiveLimits {
  /** Open subscriptions per access token; one more is refused with too_many_requests. */
  maxPerToken: number;
  /** When an update is due and more than this many bytes of earlier messages still wait to be sent, the consumer is closed with 1013. */
  maxBufferedBytes: number;
  /** A socket without a token in its URL or headers must send `{"api_key": ...}` within this many ms. */
  authTimeoutMs: number;
}

export const DEFAULT_LIVE_LIMITS: LiveLimits = { maxPerToken: 16, maxBufferedBytes: 4 * 1024 * 1024, authTimeoutMs: 5000 };

export const DEFAULT_INTERVAL_MS = 1000;
export const MIN_INTERVAL_MS = 100;
export const MAX_INTERVAL_MS = 3_600_000;

/** The `interval_ms` query parameter: absent or empty is the default; else an integer in range (400 otherwise). */
export function intervalMs(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_INTERVAL_MS;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < MIN_INTERVAL_MS || n > MAX_INTERVAL_MS) {
    throw new RingqlError('invalid_parameter', `Parameter "interval_ms" must be an integer from ${MIN_INTERVAL_MS} to ${MAX_INTERVAL_MS} (milliseconds); got "${raw.slice(0, 40)}"`, { param: 'interval_ms' });
  }
  return n;
}
