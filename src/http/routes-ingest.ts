// Ingest (SPEC §3): POST /api/logs, /logs and /api/events, the source named by ?source_name= or
// ?source=<uuid>; 200 {"message":"Logged!"} once every event is stored, with "dropped" when any were.

import { RingqlError } from '../core/errors.ts';
import { isNdjsonType, parseEventsBody } from '../endpoints/events-body.ts';
import type { Reply } from './reply.ts';
import type { Route, RouteContext } from './route.ts';
import type { Router } from './router.ts';

export function addIngestRoutes(router: Router<Route>): void {
  const route: Route = { access: 'ingest', readsBody: true, kind: 'ingest', handle: ingest };
  for (const path of ['/api/logs', '/logs', '/api/events']) router.add('POST', path, route);
}

async function ingest(ctx: RouteContext): Promise<Reply> {
  const source = ctx.query.get('source_name') || ctx.query.get('source');
  if (!source) {
    throw new RingqlError('missing_parameter', 'Name the source with ?source_name=<name> or ?source=<uuid>; GET /api/sources lists them', {
      param: 'source_name',
    });
  }
  const raw = ctx.body ?? Buffer.alloc(0);
  const bytes = raw.length;
  const type = ctx.info.contentType;
  // Awaited so a service whose ingest becomes asynchronous still answers only once events are visible.
  // The body is lent (this request's own memory, read no more here): it goes to the transform thread and
  // back instead of being copied, and the reference path parses the body that came back.
  const r = ctx.service.ingestBody
    ? await ctx.service.ingestBody(source, raw, isNdjsonType(type), (body) => parseEventsBody(body, type), true)
    : await ctx.service.ingest(source, parseEventsBody(raw, type));
  ctx.metrics.ingested(r.source ?? source, r.stored, bytes);
  const body: { message: string; dropped?: number } = { message: 'Logged!' };
  if (r.dropped > 0) body.dropped = r.dropped;
  return { status: 200, body: JSON.stringify(body) };
}
