// GET /api/openapi.json (SPEC §3 Other routes): the OpenAPI 3.1 document of the live API, any valid token.

import { openApiDocument } from './openapi/openapi-document.ts';
import { jsonReply } from './reply.ts';
import type { Route } from './route.ts';
import type { Router } from './router.ts';

export function addOpenApiRoute(router: Router<Route>): void {
  router.add('GET', '/api/openapi.json', { access: 'any', readsBody: false, handle: (c) => jsonReply(200, openApiDocument(c.service.listEndpoints())) });
}
