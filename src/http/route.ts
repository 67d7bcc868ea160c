// The shape every route shares: what access it needs, whether it reads a body, and a handler that
// gets a copied request (never the uWS objects) and answers a Reply or throws.

import type { QueryService, RunRequest } from '../endpoints/service-types.ts';
import type { Access } from './auth.ts';
import type { RequestKind } from './http-limits.ts';
import type { Reply } from './reply.ts';
import type { BodyStream, OutputFormat } from '../endpoints/service-types.ts';
import type { RequestInfo } from './request-info.ts';
import type { ServerMetrics } from './metrics/server-metrics.ts';

export interface RouteContext {
  info: RequestInfo;
  /** Decoded path captures, e.g. { idOrName }. */
  params: Record<string, string>;
  /** The query string, decoded as an HTML form. */
  query: Map<string, string>;
  /** The decoded (inflated) body when the route reads one, else null. */
  body: Buffer | null;
  service: QueryService;
  /** This server's metrics: handlers record what they did (GET /metrics). */
  metrics: ServerMetrics;
  /** Turns redaction on for everything this request sends back (body strings and headers, errors included). */
  markRedacted(): void;
  /** A stream to this response for a body too large to build whole (absent for HEAD); `head` gives its head per format. */
  openStream?(head: (format: OutputFormat) => Reply): BodyStream;
}

export interface Route {
  access: Access;
  readsBody: boolean;
  /** Whose in-flight slots it takes (default `other`); `unlimited` takes none (`/health`, never shed). */
  kind?: RequestKind | 'unlimited';
  handle(ctx: RouteContext): Reply | Promise<Reply>;
  /** For routes a cache may answer synchronously (running a saved query): the request to look up. */
  hitRequest?(ctx: HitContext): RunRequest;
}

/** What the synchronous hit path knows of a request before it looks the answer up. */
export type HitContext = Pick<RouteContext, 'info' | 'params' | 'query'>;

/**
 * A request the hit check routed, parsed and authorised without finding its answer: dispatch() takes
 * these instead of matching, decoding and authorising the same URL again (a miss is computed next).
 */
export interface CheckedRequest {
  route: Route;
  params: Record<string, string>;
  query: Map<string, string>;
}
