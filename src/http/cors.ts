// CORS (SPEC §3): the headers every response carries, and the answer to a preflight `OPTIONS`,
// which needs no token. Origin is configurable; `*` is safe since tokens never travel in cookies.

export const EXPOSED_HEADERS = 'X-Row-Count, X-Truncated, X-Cache, X-Cache-Kind, Age, Server-Timing, Retry-After, X-Ringql-Rows-Scanned, X-Ringql-Elapsed-Us';
export const ALLOWED_REQUEST_HEADERS = 'Authorization, X-API-KEY, Content-Type, Content-Encoding, LF-ENDPOINT-REDACT-PII';
export const ALLOWED_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';
export const PREFLIGHT_MAX_AGE_SECONDS = '86400';

/** Paths answered by a preflight: the API, and the legacy run and ingest paths. */
export function isCorsPath(path: string): boolean {
  return (
    path === '/api' || path.startsWith('/api/') || path.startsWith('/endpoints/') || path === '/logs' || path.startsWith('/logs/')
  );
}

/** Headers on every response. */
export function corsHeaders(origin: string): [string, string][] {
  return [
    ['Access-Control-Allow-Origin', origin],
    ['Access-Control-Expose-Headers', EXPOSED_HEADERS],
  ];
}

/** Extra headers of a preflight answer (204). */
export function preflightHeaders(): [string, string][] {
  return [
    ['Access-Control-Allow-Methods', ALLOWED_METHODS],
    ['Access-Control-Allow-Headers', ALLOWED_REQUEST_HEADERS],
    ['Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS],
  ];
}
