// The result cache's key (SPEC §8): endpoint, declared parameter values, consumer query, redaction
// flag and output format; every key of one endpoint starts with the same prefix.

import type { ResolvedRequest } from '../engine/request.ts';

/** Every key of one endpoint starts with this. */
export function keyPrefix(endpointId: string): string {
  return endpointId + '\n';
}

/**
 * The cache key: endpoint, declared parameter values (in declaration order, as resolveRequest
 * builds them), the consumer query, the redaction flag and the output format (the format is part
 * of the answer; json adds nothing, so its keys are as before). Each value is length-prefixed, so no
 * two requests share a key; built by concatenation because it runs on every request.
 */
export function cacheKey(endpointId: string, req: ResolvedRequest, redact: boolean): string {
  let key = keyPrefix(endpointId) + (redact ? 'r' : '-');
  if (req.format && req.format !== 'json') key += `#${req.format};`;
  for (const [name, v] of req.values) key += `${name.length}:${name}=${v === null ? '~' : `${v.length}:${v}`};`;
  if (req.consumer) key += `${req.consumer.kind}:${req.consumer.text.length}:${req.consumer.text}`;
  return key;
}
