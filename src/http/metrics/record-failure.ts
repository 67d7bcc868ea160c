// Counts a request that ended in an error where metrics want it: ingest errors by code, saved-query
// errors by endpoint and code. Runs only on the error path, so it may look the endpoint up.

import { RingqlError } from '../../core/errors.ts';
import type { QueryService } from '../../endpoints/service-types.ts';
import { UNKNOWN_ENDPOINT, type ServerMetrics } from './server-metrics.ts';

const INGEST_PATHS = new Set(['/api/logs', '/logs', '/api/events']);
const QUERY_PREFIXES = ['/api/endpoints/query/name/', '/api/endpoints/query/', '/endpoints/query/'];

export function recordFailure(metrics: ServerMetrics, service: QueryService, method: string, rawPath: string, err: unknown): void {
  const code = err instanceof RingqlError ? err.code : 'internal';
  const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
  if (method === 'POST' && INGEST_PATHS.has(path)) {
    metrics.ingestFailed(code);
    return;
  }
  if (method !== 'GET' && method !== 'POST' && method !== 'HEAD') return;
  const prefix = QUERY_PREFIXES.find((p) => path.startsWith(p));
  if (!prefix) return;
  const segment = path.slice(prefix.length);
  if (segment === '' || segment.includes('/')) return;
  metrics.queryFailed(endpointName(service, segment), code);
}

/** The endpoint's name, so a request by UUID and one by name count together; unknown ones share a label. */
function endpointName(service: QueryService, segment: string): string {
  try {
    return service.getEndpoint(decodeURIComponent(segment)).name;
  } catch {
    return UNKNOWN_ENDPOINT;
  }
}
