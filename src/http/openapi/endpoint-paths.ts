// One OpenAPI path per saved endpoint, by name (SPEC §3 OpenAPI): its declared parameters with
// `required` and `enum` from `allowed`, `sql`/`lql` where sandboxable, `format` where it is honoured.

import type { EndpointInfo, ParamRule } from '../../endpoints/service-types.ts';
import { errorResponses, ref, type Json } from './components.ts';

const FORMATS = ['json', 'ndjson', 'csv'];

export function endpointPath(e: EndpointInfo): Json {
  const params = queryParams(e);
  const summary = e.description || `Run ${e.name}`;
  const responses = {
    '200': {
      description: 'The rows (X-Row-Count, X-Cache, X-Truncated and Age headers say more)',
      content: {
        'application/json': { schema: ref('schemas', 'QueryResult') },
        'application/x-ndjson': { schema: { type: 'string' } },
        'text/csv': { schema: { type: 'string' } },
      },
    },
    ...errorResponses('400', '401', '403', '404', '503'),
  };
  const body = {
    required: false,
    description: 'Parameter values as a JSON object; they win over the query string',
    content: { 'application/json': { schema: { type: 'object', properties: Object.fromEntries(params.map((p) => [p.name, p.schema])), additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } } } },
  };
  const redact = { name: 'LF-ENDPOINT-REDACT-PII', in: 'header', required: false, description: '`true` redacts PII in this answer', schema: { type: 'string', enum: ['true', 'false'] } };
  return {
    get: { operationId: `run:${e.name}`, summary, tags: ['endpoints'], parameters: [...params, redact], responses },
    post: { operationId: `run-post:${e.name}`, summary, tags: ['endpoints'], parameters: [...params.map((p) => ({ ...p, required: false })), redact], requestBody: body, responses },
  };
}

interface QueryParam { name: string; in: 'query'; required: boolean; description?: string; schema: Json }

function queryParams(e: EndpointInfo): QueryParam[] {
  const out: QueryParam[] = e.params.map(declared);
  if (e.sandboxable) {
    out.push({ name: 'sql', in: 'query', required: false, description: 'Sandbox: BigQuery SQL replacing the final SELECT (it may read the query\'s CTEs); wins over lql', schema: { type: 'string' } });
    out.push({ name: 'lql', in: 'query', required: false, description: 'Sandbox: a Logflare Query Language filter, compiled to SQL', schema: { type: 'string' } });
  }
  if (!e.params.some((p) => p.name.toLowerCase() === 'format')) {
    out.push({ name: 'format', in: 'query', required: false, description: 'The body format, for links and curl (else the Accept header decides)', schema: { type: 'string', enum: FORMATS } });
  }
  return out;
}

function declared(p: ParamRule): QueryParam {
  const schema: Json = { type: 'string' };
  if (p.allowed?.length) schema.enum = [...p.allowed];
  if (p.type === 'timestamp') schema.description = 'A timestamp (ISO 8601, or as BigQuery reads one)';
  if (p.type === 'regex') schema.description = 'An RE2 regular expression';
  const q: QueryParam = { name: p.name, in: 'query', required: p.required === true, schema };
  if (p.required) q.description = 'Required; an empty value is a 400';
  return q;
}
