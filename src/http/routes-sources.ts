// Sources and health (SPEC §3 Other routes): the source list (any valid token), a source's schema
// (query scope) and /health (no token) with uptime, rows per source and memory.

import { jsonReply } from './reply.ts';
import type { Route } from './route.ts';
import type { Router } from './router.ts';

export function addSourceRoutes(router: Router<Route>): void {
  router.add('GET', '/api/sources', { access: 'any', readsBody: false, handle: (c) => jsonReply(200, c.service.sources()) });
  router.add('GET', '/api/sources/:name/schema', {
    access: 'query',
    readsBody: false,
    handle: (c) => jsonReply(200, c.service.schema(c.params.name!)),
  });
}

export function addHealthRoute(router: Router<Route>, startedAtMs: number): void {
  router.add('GET', '/health', {
    access: 'public',
    readsBody: false,
    // Never shed: a liveness probe must see the server alive while other kinds are full.
    kind: 'unlimited',
    handle: (c) => jsonReply(200, { ...c.service.health(), status: 'ok', uptime_seconds: Math.round((Date.now() - startedAtMs) / 1000) }),
  });
}
