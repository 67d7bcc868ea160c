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

/** Keys already built per resolved request object, by endpoint id and redaction flag. */
const built = new WeakMap<ResolvedRequest, { id: string; plain: string | null; redacted: string | null }>();

/**
 * cacheKey, built once per resolved request object: the hit path resolves each URL's parameters once and
 * passes the same object on every request, so its key need not be concatenated again (a few hundred
 * bytes of garbage per hit). A resolved request is never changed after resolveRequest made it.
 */
export function cacheKeyOnce(endpointId: string, req: ResolvedRequest, redact: boolean): string {
  let k = built.get(req);
  if (!k || k.id !== endpointId) built.set(req, (k = { id: endpointId, plain: null, redacted: null }));
  if (redact) return (k.redacted ??= cacheKey(endpointId, req, true));
  return (k.plain ??= cacheKey(endpointId, req, false));
}
