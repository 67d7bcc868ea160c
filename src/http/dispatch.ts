// The request pipeline, in order: URL length (414), header block (431), CORS preflight, route
// (404/405), token (401/403), an in-flight slot of the route's kind (503), body limits and encoding
// (413/415), then the handler. The part before the body read runs synchronously.

import { RingqlError } from '../core/errors.ts';
import type { QueryService } from '../endpoints/service-types.ts';
import { authorize, presentedToken, type TokenSet } from './auth.ts';
import { bodyEncoding, decodeBody } from './body-decode.ts';
import { releaseBodySlot } from './body-slots.ts';
import type { Admission } from './admission.ts';
import { isCorsPath, preflightHeaders } from './cors.ts';
import { tooLarge, type BodyDeadline, type Exchange } from './exchange.ts';
import { MAX_HEADER_BYTES, MAX_HEADER_COUNT } from './http-limits.ts';
import { parseFormQuery } from './form-params.ts';
import type { Reply } from './reply.ts';
import type { CheckedRequest, Route, RouteContext } from './route.ts';
import type { Router } from './router.ts';
import type { RequestInfo } from './request-info.ts';
import type { ServerMetrics } from './metrics/server-metrics.ts';
import { responseStream } from './response-stream.ts';

export interface DispatchConfig {
  service: QueryService;
  metrics: ServerMetrics;
  tokens: TokenSet;
  router: Router<Route>;
  maxBodyBytes: number;
  maxUrlBytes: number;
  maxDecompressedBytes: number;
  admission: Admission;
  bodyDeadline: BodyDeadline;
}

/**
 * Must be called during the uWS handler's synchronous run (it may register the body reader). `checked`:
 * what the hit check already learned of this request (route, decoded query, token accepted), not redone.
 */
export function dispatch(ex: Exchange, cfg: DispatchConfig, checked: CheckedRequest | null = null): Promise<Reply> {
  const info = ex.info;
  if (info.urlBytes > cfg.maxUrlBytes) {
    throw new RingqlError('uri_too_long', `The URL is longer than the ${cfg.maxUrlBytes}-byte limit; send long parameters in a POST body`, {
      limit: cfg.maxUrlBytes,
    });
  }
  if (info.headerBytes > MAX_HEADER_BYTES || info.headerCount > MAX_HEADER_COUNT) {
    throw new RingqlError(
      'headers_too_large',
      `The request headers are too large (${info.headerCount} lines, ${info.headerBytes} bytes); the limits are ${MAX_HEADER_COUNT} lines and ${MAX_HEADER_BYTES} bytes`,
      { limit_bytes: MAX_HEADER_BYTES, limit_count: MAX_HEADER_COUNT },
    );
  }
  if (info.method === 'OPTIONS' && isCorsPath(info.path)) return Promise.resolve({ status: 204, headers: preflightHeaders() });
  const m = checked ?? routeAndAuthorize(info, cfg);
  const query = m.query;
  const kind = m.route.kind ?? 'other';
  if (kind !== 'unlimited') ex.takeSlot(cfg.admission, kind);
  const ctx: RouteContext = {
    info, params: m.params, query, body: null, service: cfg.service, metrics: cfg.metrics,
    markRedacted: () => {
      ex.redacted = true;
    },
  };
  if (info.method !== 'HEAD') ctx.openStream = (head) => responseStream(ex, head);
  if (!m.route.readsBody) return Promise.resolve(m.route.handle(ctx));
  const declared = info.contentLength === '' ? 0 : Number(info.contentLength);
  if (declared > cfg.maxBodyBytes) throw tooLarge(cfg.maxBodyBytes);
  const encoding = bodyEncoding(info.contentEncoding);
  // An ingest body as sent is read into a shared slot (the transform thread reads it in place) and the
  // slot given back once the handler settled: the ingest path reads the body until then, and no longer.
  const shared = kind === 'ingest' && encoding === 'identity';
  return ex
    .readBody(cfg.maxBodyBytes, cfg.bodyDeadline, shared)
    .then((raw) => decodeBody(raw, encoding, cfg.maxDecompressedBytes, m.route.access === 'ingest' ? 'invalid_events' : 'invalid_parameter'))
    .then((body) => (shared ? handleThenRelease(m.route, { ...ctx, body }) : m.route.handle({ ...ctx, body })));
}

/** Runs the handler, then gives the body's slot back (whether it answered or threw). */
async function handleThenRelease(route: Route, ctx: RouteContext): Promise<Reply> {
  try {
    return await route.handle(ctx);
  } finally {
    releaseBodySlot(ctx.body);
  }
}

/** The route (404/405), the decoded query string (400) and the token check (401/403), in that order. */
function routeAndAuthorize(info: RequestInfo, cfg: DispatchConfig): CheckedRequest {
  const m = cfg.router.match(info.method, info.path);
  if (m.kind === 'none') throw new RingqlError('not_found', `No route ${info.method} ${info.path.slice(0, 200)}`);
  if (m.kind === 'wrong_method') {
    const allowed = isCorsPath(info.path) ? [...m.allowed, 'OPTIONS'] : m.allowed;
    throw new RingqlError('method_not_allowed', `${info.method} is not allowed on ${info.path.slice(0, 200)}; use ${allowed.join(', ')}`, { allowed });
  }
  const query = parseFormQuery(info.query);
  authorize(cfg.tokens, presentedToken(info.authorization, info.apiKey, query), m.route.access);
  return { route: m.route, params: m.params, query };
}
