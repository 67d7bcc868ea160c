// The HTTP framing and admission limits (SPEC §11): URL and header-block bounds, in-flight requests per
// kind, and the deadline for a request body to arrive; the variables are parsed in core/config.ts.

import { httpLimitsConfig, type Env, type HttpLimits } from '../core/config.ts';

export {
  DEFAULT_BODY_IDLE_TIMEOUT_MS, DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_URL_BYTES, MAX_MAX_URL_BYTES,
  type HttpLimits, type InflightLimits, type RequestKind,
} from '../core/config.ts';

/** SPEC §11: a header block above 64 KiB or with more than 100 lines → 431 `headers_too_large`. */
export const MAX_HEADER_BYTES = 64 * 1024;
export const MAX_HEADER_COUNT = 100;

/** `perKindDefault` is RINGQL_MAX_CONCURRENT_REQUESTS: each kind may hold that many unless set apart. */
export function httpLimitsFromEnv(env: Env, perKindDefault: number): HttpLimits {
  return httpLimitsConfig(env, perKindDefault);
}
