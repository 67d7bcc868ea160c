// Running a saved query (SPEC §3): form-decoded query-string params, POST JSON body values on top,
// the redaction header, the output format (Accept or `format`), and the answer's body as the service
// made it, with metadata headers.

import { RingqlError } from '../core/errors.ts';
import type { OutputFormat, RunRequest, RunResponse } from '../endpoints/service-types.ts';
import { parseJsonObject } from './json-body.ts';
import type { Reply } from './reply.ts';
import type { HitContext, Route, RouteContext } from './route.ts';
import type { Router } from './router.ts';
import { acceptedFormat } from './accept-format.ts';
import { CONTENT_TYPES } from '../endpoints/output-format.ts';

export function addRunRoutes(router: Router<Route>): void {
  const get: Route = { access: 'query', readsBody: false, kind: 'query', handle: runEndpoint, hitRequest: runRequest };
  const post: Route = { access: 'query', readsBody: true, kind: 'query', handle: runEndpoint };
  router.add('GET', '/api/endpoints/query/:idOrName', get);
  router.add('POST', '/api/endpoints/query/:idOrName', post);
  router.add('GET', '/endpoints/query/:idOrName', get);
  // The older dashboards' route (SPEC §3): by name, with `ref` and `project_tier` ignored.
  router.add('GET', '/api/endpoints/query/name/:idOrName', { ...get, handle: runLegacyByName, hitRequest: (ctx) => runRequest(withoutLegacy(ctx)) });
  router.add('POST', '/api/endpoints/query/name/:idOrName', { ...post, handle: runLegacyByName });
}

const LEGACY_IGNORED = new Set(['ref', 'project_tier']);

function withoutLegacy<T extends HitContext>(ctx: T): T {
  const query = new Map([...ctx.query].filter(([k]) => !LEGACY_IGNORED.has(k.toLowerCase())));
  return { ...ctx, query };
}

function runLegacyByName(ctx: RouteContext): Promise<Reply> {
  return runEndpoint(withoutLegacy(ctx));
}

/** The service request of a run: endpoint, parameters (body values over the query string), redaction header, format. */
function runRequest(ctx: HitContext & { body?: Buffer | null }): RunRequest {
  const endpoint = ctx.params.idOrName!;
  const redactHeader = ctx.info.redactHeader;
  const params = ctx.body ? mergeBodyParams(ctx.query, ctx.body) : ctx.query;
  const accepted = acceptedFormat(ctx.info.accept);
  const req: RunRequest = accepted === 'json' ? { endpoint, params, redactHeader } : { endpoint, params, redactHeader, accepted };
  if (ctx.info.forwardedBy !== '') req.forwardedBy = ctx.info.forwardedBy;
  return req;
}

async function runEndpoint(ctx: RouteContext): Promise<Reply> {
  const started = performance.now();
  const endpoint = ctx.params.idOrName!;
  // Before anything can fail: an error of this request (a CAST quoting a row) is redacted too.
  if (ctx.info.redactHeader || ctx.service.endpointRedacts(endpoint)) ctx.markRedacted();
  const req = runRequest(ctx);
  if (ctx.openStream) req.stream = ctx.openStream(streamHead);
  const r = await ctx.service.run(req);
  ctx.metrics.answered(r.endpoint ?? endpoint, r.cache === 'MISS' ? 'miss' : (r.cacheKind ?? 'result'), (performance.now() - started) / 1000);
  return runReply(r);
}

/** The 200 answer of a run, without the per-request X-Ringql-Elapsed-Us (Exchange.send adds it). */
export function runReply(r: RunResponse): Reply {
  const reply: Reply = { status: 200, body: r.body, headers: runHeaders(r), bodyRedacted: r.redacted === true };
  if (r.format && r.format !== 'json') reply.contentType = CONTENT_TYPES[r.format];
  if (r.streamed) reply.streamed = true;
  if (r.recyclable) reply.recyclable = true;
  return reply;
}

/**
 * The head of a streamed answer (computed now, its rows still coming): what is not known before the
 * last row — X-Row-Count, X-Truncated, Server-Timing, X-Ringql-Rows-Scanned — cannot be in it.
 */
function streamHead(format: OutputFormat): Reply {
  const reply: Reply = { status: 200, headers: [['X-Cache', 'MISS'], ['Age', '0'], ['Vary', 'Accept']], bodyRedacted: true };
  if (format !== 'json') reply.contentType = CONTENT_TYPES[format];
  return reply;
}

/**
 * Body values win over the query string, whatever the case of either name (names match
 * case-insensitively); numbers and booleans are stringified, null counts as absent.
 */
export function mergeBodyParams(query: Map<string, string>, body: Buffer): Map<string, string> {
  const obj = parseJsonObject(body, 'request body (an object of parameter values)');
  if (!obj) return query;
  const fromBody = new Map<string, string>();
  for (const [k, v] of Object.entries(obj)) {
    if (v === null) continue;
    if (typeof v === 'string') fromBody.set(k, v);
    else if (typeof v === 'number' || typeof v === 'boolean') fromBody.set(k, String(v));
    else throw new RingqlError('invalid_parameter', `Parameter ${k.slice(0, 100)} must be a string, number or boolean`, { param: k.slice(0, 100) });
  }
  if (fromBody.size === 0) return query;
  const overridden = new Set<string>();
  for (const k of fromBody.keys()) overridden.add(k.toLowerCase());
  const params = new Map<string, string>();
  for (const [k, v] of query) if (!overridden.has(k.toLowerCase())) params.set(k, v);
  for (const [k, v] of fromBody) params.set(k, v);
  return params;
}

export function runHeaders(r: RunResponse): [string, string][] {
  const h: [string, string][] = [
    ['X-Row-Count', String(r.rowCount)],
    ['X-Cache', r.cache],
    ['Age', String(Math.max(0, Math.floor(r.ageSeconds)))],
  ];
  if (r.truncated) h.push(['X-Truncated', 'true']);
  if (r.cache === 'HIT' && r.cacheKind) h.push(['X-Cache-Kind', r.cacheKind]);
  if (r.timings.length) h.push(['Server-Timing', r.timings.map((t) => `${t.name};dur=${formatMs(t.ms)}`).join(', ')]);
  h.push(['X-Ringql-Rows-Scanned', String(r.rowsScanned ?? 0)]);
  // The body's format can follow the Accept header, so caches must key on it.
  h.push(['Vary', 'Accept']);
  return h;
}

function formatMs(ms: number): string {
  return String(Math.round(Math.max(0, ms) * 1000) / 1000);
}
