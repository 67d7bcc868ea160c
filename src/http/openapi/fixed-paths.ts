// The OpenAPI paths every ringql server has: ingest, endpoint management, sources, health, metrics
// and this document itself (SPEC §3).

import { errorResponses, ref, type Json } from './components.ts';

const json = (schema: Json): Json => ({ 'application/json': { schema } });
const idOrName = { name: 'idOrName', in: 'path', required: true, description: "The endpoint's UUID or name", schema: { type: 'string' } };
const NONE: Json[] = [];

function ingestPath(operationId: string): Json {
  return {
    post: {
      operationId, tags: ['ingest'], summary: 'Ingest a batch of events (all or nothing); 200 once stored, visible and logged',
      parameters: [
        { name: 'source_name', in: 'query', required: false, description: 'The source by name (or ?source=<uuid>)', schema: { type: 'string' } },
        { name: 'source', in: 'query', required: false, description: 'The source by UUID', schema: { type: 'string', format: 'uuid' } },
        { name: 'Content-Encoding', in: 'header', required: false, schema: { type: 'string', enum: ['gzip', 'identity'] } },
      ],
      requestBody: { required: true, content: { ...json(ref('schemas', 'Events')), 'application/x-ndjson': { schema: { type: 'string' } } } },
      responses: {
        '200': { description: 'Stored', content: json({ type: 'object', required: ['message'], properties: { message: { type: 'string', const: 'Logged!' }, dropped: { type: 'integer' } } }) },
        '415': { description: 'A content encoding other than gzip', content: json(ref('schemas', 'Error')) },
        ...errorResponses('400', '401', '403', '404', '413', '503'),
      },
    },
  };
}

function managementPaths(): Json {
  const endpoint = { description: 'The endpoint', content: json(ref('schemas', 'Endpoint')) };
  const input = { required: true, content: json(ref('schemas', 'EndpointInput')) };
  return {
    '/api/endpoints': {
      get: { operationId: 'listEndpoints', tags: ['manage'], responses: { '200': { description: 'Every endpoint', content: json({ type: 'array', items: ref('schemas', 'Endpoint') }) }, ...errorResponses('401', '403') } },
      post: { operationId: 'createEndpoint', tags: ['manage'], requestBody: input, responses: { '201': endpoint, ...errorResponses('400', '401', '403', '409') } },
    },
    '/api/endpoints/{idOrName}': {
      parameters: [idOrName],
      get: { operationId: 'getEndpoint', tags: ['manage'], responses: { '200': endpoint, ...errorResponses('401', '403', '404') } },
      put: { operationId: 'updateEndpoint', tags: ['manage'], requestBody: input, responses: { '200': endpoint, ...errorResponses('400', '401', '403', '404', '409') } },
      delete: { operationId: 'deleteEndpoint', tags: ['manage'], responses: { '204': { description: 'Deleted' }, ...errorResponses('401', '403', '404', '409') } },
    },
  };
}

function otherPaths(): Json {
  const sourceName = { name: 'name', in: 'path', required: true, schema: { type: 'string' } };
  return {
    '/api/sources': { get: { operationId: 'listSources', tags: ['sources'], responses: { '200': { description: 'Every source', content: json({ type: 'array', items: ref('schemas', 'Source') }) }, ...errorResponses('401') } } },
    '/api/sources/{name}/schema': {
      get: {
        operationId: 'sourceSchema', tags: ['sources'], parameters: [sourceName],
        responses: { '200': { description: 'The fields seen so far, with their types', content: json({ type: 'array', items: { type: 'object' } }) }, ...errorResponses('401', '403', '404') },
      },
    },
    '/health': { get: { operationId: 'health', tags: ['operations'], security: NONE, responses: { '200': { description: 'Uptime, rows per source, memory, disk and the last recovery', content: json({ type: 'object' }) } } } },
    '/metrics': { get: { operationId: 'metrics', tags: ['operations'], responses: { '200': { description: 'Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } }, ...errorResponses('401') } } },
    '/api/openapi.json': { get: { operationId: 'openapi', tags: ['operations'], responses: { '200': { description: 'This document', content: json({ type: 'object' }) }, ...errorResponses('401') } } },
  };
}

export function fixedPaths(): Json {
  return { '/api/logs': ingestPath('ingest'), '/logs': ingestPath('ingestLogs'), '/api/events': ingestPath('ingestEvents'), ...managementPaths(), ...otherPaths() };
}
