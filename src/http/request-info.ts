// A plain copy of what ringql needs from a uWS HttpRequest, which is only valid during the handler's
// synchronous run: taken first thing, before any await.

import type { HttpRequest } from 'uWebSockets.js';

const REDACT_HEADER = 'lf-endpoint-redact-pii';

type CopiedHeader = 'authorization' | 'apiKey' | 'contentType' | 'contentEncoding' | 'contentLength' | 'transferEncoding' | 'accept' | 'forwardedBy';
const COPIED: readonly [string, CopiedHeader][] = [
  ['authorization', 'authorization'], ['x-api-key', 'apiKey'], ['content-type', 'contentType'], ['content-encoding', 'contentEncoding'],
  ['content-length', 'contentLength'], ['transfer-encoding', 'transferEncoding'], ['accept', 'accept'], ['x-ringql-forwarded', 'forwardedBy'],
];
/** Header name → its RequestInfo field and a bit marking it seen. */
const FIELDS = new Map<string, { field: CopiedHeader; bit: number }>(COPIED.map(([name, field], i) => [name, { field, bit: 1 << i }]));

export interface RequestInfo {
  /** Upper-case method, e.g. GET. */
  method: string;
  /** Raw (still percent-encoded) path, beginning with `/`. */
  path: string;
  /** Raw query string, without `?`. */
  query: string;
  /** Bytes of path plus `?query`, for the 414 check. */
  urlBytes: number;
  authorization: string;
  apiKey: string;
  contentType: string;
  contentEncoding: string;
  /** Content-Length header text, '' when absent. */
  contentLength: string;
  transferEncoding: string;
  /** Accept header text, '' when absent (the run route's output format). */
  accept: string;
  /** X-Ringql-Forwarded: the cluster node that forwarded this query ('' when none): answer it here, never forward again. */
  forwardedBy: string;
  /** Some copy of LF-ENDPOINT-REDACT-PII says `true`: with repeated copies the most restrictive wins. */
  redactHeader: boolean;
  /** Header lines as received (uWS joins none of them), for the 431 check. */
  headerCount: number;
  /** Bytes of the header block: each line's name, value and its `: ` and CRLF. */
  headerBytes: number;
}

/** The usual methods upper-cased without making a new string per request (uWS gives them lower case). */
const UPPER: Readonly<Record<string, string>> = { get: 'GET', post: 'POST', head: 'HEAD', options: 'OPTIONS', put: 'PUT', patch: 'PATCH', delete: 'DELETE' };

function upperMethod(method: string): string {
  return Object.hasOwn(UPPER, method) ? UPPER[method]! : method.toUpperCase();
}

export function copyRequest(req: HttpRequest): RequestInfo {
  const path = req.getUrl();
  const query = req.getQuery() ?? '';
  const info: RequestInfo = {
    method: upperMethod(req.getMethod()),
    path,
    query,
    urlBytes: Buffer.byteLength(path) + (query === '' ? 0 : 1 + Buffer.byteLength(query)),
    authorization: '', apiKey: '', contentType: '', contentEncoding: '', contentLength: '', transferEncoding: '', accept: '', forwardedBy: '',
    redactHeader: false,
    headerCount: 0,
    headerBytes: 0,
  };
  // One pass over every header line, by a callback made once (a closure per request was garbage).
  copying = info;
  seenBits = 0;
  req.forEach(copyHeader);
  copying = NOBODY;
  return info;
}

/** The RequestInfo copyRequest fills while uWS's forEach runs (synchronously), and its headers seen. */
const NOBODY = {} as RequestInfo;
let copying = NOBODY;
let seenBits = 0;

/**
 * One header line into `copying` (uWS keys are lower case). The redaction header is read in every copy
 * (the most restrictive wins); the others keep their first copy, as getHeader() would.
 */
function copyHeader(key: string, value: string): void {
  const info = copying;
  info.headerCount++;
  info.headerBytes += key.length + value.length + 4;
  if (key === REDACT_HEADER) {
    if (value.trim().toLowerCase() === 'true') info.redactHeader = true;
    return;
  }
  const f = FIELDS.get(key);
  if (f === undefined || seenBits & f.bit) return;
  seenBits |= f.bit;
  info[f.field] = value;
}

/** The request announced a body (a Content-Length above 0, or chunked transfer). */
export function announcesBody(info: RequestInfo): boolean {
  return (info.contentLength !== '' && info.contentLength !== '0') || info.transferEncoding !== '';
}
