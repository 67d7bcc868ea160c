// GET /api/openapi.json (SPEC §3): an OpenAPI 3.1 document of the live API, made from the endpoint
// list at each request, so it changes when endpoints are created, changed or deleted.

import type { EndpointInfo } from '../../endpoints/service-types.ts';
import { components, type Json } from './components.ts';
import { endpointPath } from './endpoint-paths.ts';
import { fixedPaths } from './fixed-paths.ts';

export function openApiDocument(endpoints: readonly EndpointInfo[]): Json {
  const paths: Json = {};
  for (const e of [...endpoints].sort((a, b) => a.name.localeCompare(b.name))) paths[`/api/endpoints/query/${e.name}`] = endpointPath(e);
  return {
    openapi: '3.1.0',
    info: {
      title: 'ringql',
      version: '0.1.0',
      description: 'Saved, parameterised BigQuery-dialect SQL over logs, served as HTTP endpoints. One path per saved endpoint under /api/endpoints/query/.',
    },
    security: [{ bearer: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }],
    tags: [{ name: 'endpoints' }, { name: 'ingest' }, { name: 'manage' }, { name: 'sources' }, { name: 'operations' }],
    paths: { ...paths, ...fixedPaths() },
    components: components(),
  };
}
