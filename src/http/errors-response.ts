// Turns any thrown value into a Reply, in exactly one place: a RingqlError gives its status and body
// (plus Retry-After, Allow, WWW-Authenticate where they apply); anything else is a logged 500.

import { RingqlError, internalErrorBody } from '../core/errors.ts';
import { jsonReply, type Reply } from './reply.ts';

export function errorReply(err: unknown, log: (line: string) => void, where: string): Reply {
  if (err instanceof RingqlError) {
    const headers: [string, string][] = [];
    if (err.status === 503) {
      const after = Number(err.details.retry_after);
      headers.push(['Retry-After', String(Number.isFinite(after) && after > 0 ? Math.ceil(after) : 1)]);
    }
    if (err.code === 'method_not_allowed' && Array.isArray(err.details.allowed)) {
      headers.push(['Allow', (err.details.allowed as string[]).join(', ')]);
    }
    if (err.code === 'unauthorized') headers.push(['WWW-Authenticate', 'Bearer']);
    return jsonReply(err.status, err.toBody(), headers);
  }
  // `where` is method and path only: query strings may carry an api_key and are never logged.
  const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
  log(`ringql: internal error in ${where}: ${detail}`);
  return jsonReply(500, internalErrorBody());
}
