// What a route handler answers: a status, an optional JSON body text and extra headers. The server
// turns it into bytes in one place (exchange.ts); handlers never touch uWS.

export interface Reply {
  status: number;
  /** JSON text; absent for 204. */
  body?: string | Buffer;
  headers?: [string, string][];
  /** Content-Type of the body; absent = application/json. */
  contentType?: string;
  /** The body was already redacted where it was made (the engine's redacted result), so send() need not scan it. */
  bodyRedacted?: boolean;
  /** The body was streamed (Exchange.writeChunk): this is its last piece, and the head is already out. */
  streamed?: boolean;
  /** Nothing else holds `body`: send() gives its memory back to core/body-pool.ts once uWS copied it. */
  recyclable?: boolean;
}

export function jsonReply(status: number, value: unknown, headers?: [string, string][]): Reply {
  return headers ? { status, body: JSON.stringify(value), headers } : { status, body: JSON.stringify(value) };
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 201: 'Created', 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found',
  405: 'Method Not Allowed', 406: 'Not Acceptable', 409: 'Conflict', 413: 'Payload Too Large', 414: 'URI Too Long', 415: 'Unsupported Media Type',
  429: 'Too Many Requests', 431: 'Request Header Fields Too Large', 500: 'Internal Server Error', 503: 'Service Unavailable',
};

/** The status line uWS writes, e.g. `404 Not Found`. */
export function statusLine(status: number): string {
  return `${status} ${STATUS_TEXT[status] ?? 'Unknown'}`;
}
