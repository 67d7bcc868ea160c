// The HTTP framing and admission limits (SPEC §11), read from the environment once and validated
// (a bad value stops the start with the variable named): URL and header-block bounds, in-flight
// requests per kind, and the deadline for a request body to arrive.

import { intVar, type Env } from '../core/env-int.ts';

/** What an in-flight slot is counted as: one kind can fill only its own slots (`/health` takes none). */
export type RequestKind = 'ingest' | 'query' | 'other';

export type InflightLimits = Record<RequestKind, number>;

export interface HttpLimits {
  /** Bytes of path plus query string → 414 `uri_too_long`. */
  maxUrlBytes: number;
  inflight: InflightLimits;
  /** The whole body must have arrived within this many ms of the request head, else the connection is closed. */
  bodyTimeoutMs: number;
  /** ...and no more than this many ms may pass between two chunks of it. */
  bodyIdleTimeoutMs: number;
}

/** SPEC §11: a header block above 64 KiB or with more than 100 lines → 431 `headers_too_large`. */
export const MAX_HEADER_BYTES = 64 * 1024;
export const MAX_HEADER_COUNT = 100;

export const DEFAULT_MAX_URL_BYTES = 64 * 1024;
/** Upper bound of RINGQL_MAX_URL_BYTES: the whole request head must stay within what uWS reads in one go. */
export const MAX_MAX_URL_BYTES = 128 * 1024;
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 5_000;

/** `perKindDefault` is RINGQL_MAX_CONCURRENT_REQUESTS: each kind may hold that many unless set apart. */
export function httpLimitsFromEnv(env: Env, perKindDefault: number): HttpLimits {
  const bodyTimeoutMs = intVar(env, 'RINGQL_BODY_TIMEOUT_MS', DEFAULT_BODY_TIMEOUT_MS, 100, 3_600_000);
  return {
    maxUrlBytes: intVar(env, 'RINGQL_MAX_URL_BYTES', DEFAULT_MAX_URL_BYTES, 256, MAX_MAX_URL_BYTES),
    inflight: {
      ingest: intVar(env, 'RINGQL_MAX_INFLIGHT_INGEST', perKindDefault, 1, 1_000_000),
      query: intVar(env, 'RINGQL_MAX_INFLIGHT_QUERY', perKindDefault, 1, 1_000_000),
      other: intVar(env, 'RINGQL_MAX_INFLIGHT_OTHER', perKindDefault, 1, 1_000_000),
    },
    bodyTimeoutMs,
    bodyIdleTimeoutMs: intVar(env, 'RINGQL_BODY_IDLE_TIMEOUT_MS', Math.min(DEFAULT_BODY_IDLE_TIMEOUT_MS, bodyTimeoutMs), 100, 3_600_000),
  };
}
