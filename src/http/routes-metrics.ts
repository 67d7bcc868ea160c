// GET /metrics (SPEC §3 Other routes): this server's metrics in the Prometheus text format; a token
// of any scope, unless RINGQL_METRICS_PUBLIC=1 opens it to scrapers without one.

import type { Route } from './route.ts';
import type { Router } from './router.ts';

export function addMetricsRoute(router: Router<Route>, metricsPublic: boolean): void {
  router.add('GET', '/metrics', {
    access: metricsPublic ? 'public' : 'any',
    readsBody: false,
    handle: async (c) => ({ status: 200, body: await c.metrics.render(c.service), contentType: c.metrics.contentType }),
  });
}
