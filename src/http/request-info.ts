// A plain copy of what ringql needs from a uWS HttpRequest, which is only valid during the handler's
// synchronous run: taken first thing, before any await.

import type { HttpRequest } from 'uWebSockets.js';

const REDACT_HEADER = 'lf-endpoint-redact-pii';

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
  /** Some copy of LF-ENDPOINT-REDACT-PII says `true`: with repeated copies the most restrictive wins. */
  redactHeader: boolean;
  /** Header lines as received (uWS joins none of them), for the 431 check. */
  headerCount: number;
  /** Bytes of the header block: each line's name, value and its `: ` and CRLF. */
  headerBytes: number;
}

export function copyRequest(req: HttpRequest): RequestInfo {
  const path = req.getUrl();
  const query = req.getQuery() ?? '';
  // One pass over every header line: getHeader() sees only the first copy of a repeated header.
  let headerCount = 0;
  let headerBytes = 0;
  let redactHeader = false;
  req.forEach((key, value) => {
    headerCount++;
    headerBytes += key.length + value.length + 4;
    if (key === REDACT_HEADER && !redactHeader) redactHeader = value.trim().toLowerCase() === 'true';
  });
  return {
    method: req.getMethod().toUpperCase(),
    path,
    query,
    urlBytes: Buffer.byteLength(path) + (query === '' ? 0 : 1 + Buffer.byteLength(query)),
    authorization: req.getHeader('authorization'),
    apiKey: req.getHeader('x-api-key'),
    contentType: req.getHeader('content-type'),
    contentEncoding: req.getHeader('content-encoding'),
    contentLength: req.getHeader('content-length'),
    transferEncoding: req.getHeader('transfer-encoding'),
    redactHeader,
    headerCount,
    headerBytes,
  };
}

/** The request announced a body (a Content-Length above 0, or chunked transfer). */
export function announcesBody(info: RequestInfo): boolean {
  return (info.contentLength !== '' && info.contentLength !== '0') || info.transferEncoding !== '';
}
