// Every route of SPEC §3 in one router; the order of registration does not matter (no overlaps).

import { addEndpointRoutes } from './routes-endpoints.ts';
import { addIngestRoutes } from './routes-ingest.ts';
import { addMetricsRoute } from './routes-metrics.ts';
import { addOpenApiRoute } from './routes-openapi.ts';
import { pageFiles } from './page-files.ts';
import { addPageRoutes } from './routes-page.ts';
import { addRunRoutes } from './routes-run.ts';
import { addHealthRoute, addSourceRoutes } from './routes-sources.ts';
import type { Route } from './route.ts';
import { Router } from './router.ts';

export function buildRouter(startedAtMs: number, metricsPublic = false): Router<Route> {
  const router = new Router<Route>();
  addRunRoutes(router);
  addIngestRoutes(router);
  addEndpointRoutes(router);
  addSourceRoutes(router);
  addHealthRoute(router, startedAtMs);
  addMetricsRoute(router, metricsPublic);
  addOpenApiRoute(router);
  addPageRoutes(router, pageFiles());
  return router;
}
