// The one error hierarchy of ringql: every failure a client can cause is a RingqlError with a code;
// ERROR_STATUS is the one table that maps codes to HTTP statuses (SPEC §3 Errors).

export const ERROR_STATUS = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  endpoint_not_found: 404,
  source_not_found: 404,
  method_not_allowed: 405,
  name_taken: 409,
  builtin_readonly: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_encoding: 415,
  headers_too_large: 431,
  too_many_requests: 429,
  not_acceptable: 406,
  value_too_large: 400,
  storage_unavailable: 503,
  missing_parameter: 400,
  invalid_parameter: 400,
  syntax_error: 400,
  unknown_name: 400,
  ambiguous_name: 400,
  sandbox_violation: 400,
  sandbox_disabled: 400,
  query_error: 400,
  invalid_events: 400,
  overloaded: 503,
  query_timeout: 503,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Extra fields carried in the error body next to code and message (line, column, param, allowed, errors...). */
export type ErrorDetails = Record<string, unknown>;

export class RingqlError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;
  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'RingqlError';
    this.code = code;
    this.details = details;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
  /** The JSON error body of SPEC §3: {"error":{"code","message",...details}}. */
  toBody(): { error: Record<string, unknown> } {
    return { error: { code: this.code, message: this.message, ...this.details } };
  }
}

export function isRingqlError(e: unknown): e is RingqlError {
  return e instanceof RingqlError;
}

/** Body for an unexpected failure: no internals leak to the client. */
export function internalErrorBody(): { error: { code: 'internal'; message: string } } {
  return { error: { code: 'internal', message: 'Internal server error; the failure was logged.' } };
}
