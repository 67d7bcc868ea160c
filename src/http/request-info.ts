// A plain copy of what ringql needs from a uWS HttpRequest, which is only valid during the handler's
// synchronous run: taken first thing, before any await.

import type { HttpRequest } from 'uWebSockets.js';

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
  redactPii: string;
}

export function copyRequest(req: HttpRequest): RequestInfo {
  const path = req.getUrl();
  const query = req.getQuery() ?? '';
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
    redactPii: req.getHeader('lf-endpoint-redact-pii'),
  };
}

/** The request announced a body (a Content-Length above 0, or chunked transfer). */
export function announcesBody(info: RequestInfo): boolean {
  return (info.contentLength !== '' && info.contentLength !== '0') || info.transferEncoding !== '';
}
