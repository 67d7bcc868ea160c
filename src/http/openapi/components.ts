// The shared parts of ringql's OpenAPI document: auth schemes, the error body (SPEC §3 Errors) with
// every code, and the schemas of endpoints, sources and query results.

import { ERROR_STATUS } from '../../core/errors.ts';

export type Json = Record<string, unknown>;

export const ref = (kind: 'schemas' | 'responses', name: string): Json => ({ $ref: `#/components/${kind}/${name}` });

/** A response of one status answered with the error body. */
export const ERROR_RESPONSES: Record<string, string> = {
  '400': 'Bad parameters, SQL syntax (with line and column), unknown names, sandbox violations',
  '401': 'Missing or unknown token',
  '403': 'The token lacks the scope this route needs',
  '404': 'Unknown endpoint, source or route',
  '409': 'The name is taken, or the endpoint is built in',
  '413': 'Body too large',
  '429': 'Over a limit',
  '503': 'Over the time budget, load shed, or storage unavailable (see Retry-After)',
};

/** Error responses as references, for the statuses given. */
export function errorResponses(...statuses: string[]): Json {
  return Object.fromEntries(statuses.map((s) => [s, ref('responses', `Error${s}`)]));
}

export function components(): Json {
  const responses = Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([status, description]) => [
    `Error${status}`, { description, content: { 'application/json': { schema: ref('schemas', 'Error') } } },
  ]));
  return {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <token>' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
      apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
    },
    responses,
    schemas: schemas(),
  };
}

function schemas(): Json {
  const str = { type: 'string' };
  const int = { type: 'integer' };
  const param = { type: 'object', required: ['name'], properties: { name: str, required: { type: 'boolean' }, allowed: { type: 'array', items: str }, type: { type: 'string', enum: ['string', 'timestamp', 'regex'] } } };
  const settings = {
    max_limit: { type: 'integer', minimum: 1, maximum: 10000 }, cache_duration_seconds: { type: 'integer', minimum: 0 },
    proactive_requerying_seconds: { type: 'integer', minimum: 0 }, sandboxable: { type: 'boolean' }, redact_pii: { type: 'boolean' },
  };
  return {
    Error: {
      type: 'object', required: ['error'],
      properties: {
        error: {
          type: 'object', required: ['code', 'message'], additionalProperties: true,
          properties: {
            code: { type: 'string', enum: Object.keys(ERROR_STATUS) }, message: str, line: int, column: int, param: str,
            allowed: { type: 'array', items: {} }, errors: { type: 'array', items: { type: 'object', properties: { index: int, message: str } } },
          },
        },
      },
    },
    QueryResult: { type: 'object', required: ['result'], properties: { result: { type: 'array', items: { type: 'object', additionalProperties: true } } } },
    Endpoint: {
      type: 'object', required: ['id', 'token', 'name', 'query', 'params', 'builtin'],
      properties: { id: { type: 'string', format: 'uuid' }, token: { type: 'string', format: 'uuid' }, name: str, description: str, query: str, ...settings, params: { type: 'array', items: param }, builtin: { type: 'boolean' } },
    },
    EndpointInput: {
      type: 'object',
      properties: { name: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$' }, query: str, description: str, ...settings, params: { type: 'array', items: param } },
    },
    Source: {
      type: 'object', required: ['id', 'name', 'rows'],
      properties: { id: { type: 'string', format: 'uuid' }, name: str, rows: int, min_timestamp: { type: ['integer', 'null'] }, max_timestamp: { type: ['integer', 'null'] }, evicted: int },
    },
    Events: {
      description: 'A batch: {"batch":[...]}, a bare array of events, or one event object (NDJSON with Content-Type application/x-ndjson)',
      oneOf: [
        { type: 'object', required: ['batch'], properties: { batch: { type: 'array', items: { type: 'object' } } } },
        { type: 'array', items: { type: 'object' } },
        { type: 'object' },
      ],
    },
  };
}
