// Endpoint management (SPEC §3, scope private): list, read, create (201), update (200), delete (204).

import { RingqlError } from '../core/errors.ts';
import type { EndpointInput } from '../endpoints/service-types.ts';
import { parseJsonObject } from './json-body.ts';
import { jsonReply, type Reply } from './reply.ts';
import type { Route, RouteContext } from './route.ts';
import type { Router } from './router.ts';

export function addEndpointRoutes(router: Router<Route>): void {
  router.add('GET', '/api/endpoints', { access: 'private', readsBody: false, handle: (c) => jsonReply(200, c.service.listEndpoints()) });
  router.add('POST', '/api/endpoints', {
    access: 'private',
    readsBody: true,
    handle: async (c) => jsonReply(201, await c.service.createEndpoint(endpointInput(c))),
  });
  router.add('GET', '/api/endpoints/:idOrName', {
    access: 'private',
    readsBody: false,
    handle: (c) => jsonReply(200, c.service.getEndpoint(c.params.idOrName!)),
  });
  router.add('PUT', '/api/endpoints/:idOrName', {
    access: 'private',
    readsBody: true,
    handle: async (c) => jsonReply(200, await c.service.updateEndpoint(c.params.idOrName!, endpointInput(c))),
  });
  router.add('DELETE', '/api/endpoints/:idOrName', { access: 'private', readsBody: false, handle: deleteEndpoint });
}

function endpointInput(c: RouteContext): EndpointInput {
  const obj = parseJsonObject(c.body ?? Buffer.alloc(0), 'endpoint definition');
  if (!obj) throw new RingqlError('invalid_parameter', 'Send the endpoint as a JSON object, e.g. {"name":"my.query","query":"select ..."}');
  return obj;
}

async function deleteEndpoint(c: RouteContext): Promise<Reply> {
  await c.service.deleteEndpoint(c.params.idOrName!);
  return { status: 204 };
}
