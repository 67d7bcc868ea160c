// Sources and health (SPEC §3 Other routes): the source list (any valid token), a source's schema
// (query scope) and /health (no token) with uptime, rows per source and memory.

import { RingqlError } from '../core/errors.ts';
import { jsonReply } from './reply.ts';
import type { Route } from './route.ts';
import type { Router } from './router.ts';

export function addSourceRoutes(router: Router<Route>): void {
  router.add('GET', '/api/sources', { access: 'any', readsBody: false, handle: async (c) => jsonReply(200, await c.service.sources()) });
  router.add('GET', '/api/sources/:name/schema', {
    access: 'query',
    readsBody: false,
    handle: (c) => {
      const fields = c.service.schema(c.params.name!);
      const limit = pageParam(c.query, 'limit', SCHEMA_PAGE, 1, SCHEMA_PAGE_MAX);
      const offset = pageParam(c.query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
      const page = offset === 0 && fields.length <= limit ? fields : fields.slice(offset, offset + limit);
      return jsonReply(200, page, [['X-Total-Count', String(fields.length)]]);
    },
  });
}

/** Fields per schema page by default, and at most (`?limit=`); `X-Total-Count` gives the whole count. */
export const SCHEMA_PAGE = 1000;
export const SCHEMA_PAGE_MAX = 10_000;

function pageParam(query: Map<string, string>, name: string, def: number, min: number, max: number): number {
  let raw: string | undefined;
  for (const [k, v] of query) if (k.toLowerCase() === name) raw = v;
  if (raw === undefined || raw.trim() === '') return def;
  const n = Number(raw.trim());
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new RingqlError('invalid_parameter', `${name} must be an integer from ${min} to ${max}, not "${raw.slice(0, 40)}"`);
  }
  return n;
}

export function addHealthRoute(router: Router<Route>, startedAtMs: number): void {
  router.add('GET', '/health', {
    access: 'public',
    readsBody: false,
    // Never shed: a liveness probe must see the server alive while other kinds are full.
    kind: 'unlimited',
    handle: async (c) => jsonReply(200, { ...(await c.service.health()), status: 'ok', uptime_seconds: Math.round((Date.now() - startedAtMs) / 1000) }),
  });
}
