// A short, engine-independent summary of a query result (row count plus the values that identify it),
// so ringql's and DuckDB's answers can be checked equal before their times are compared.

import type { BenchQuery } from './queries.ts';

export function fingerprint(q: BenchQuery, rows: Record<string, unknown>[]): string {
  const n = (v: unknown): number => Number(v);
  if (q.endpoint === 'usage.api-counts') {
    return JSON.stringify(rows.map((r) => [String(r.timestamp), n(r.total_rest_requests), n(r.total_storage_requests), n(r.total_auth_requests), n(r.total_realtime_requests)]));
  }
  if (q.params.sql?.includes('count(*) as count from')) return JSON.stringify(rows.map((r) => n(r.count)));
  if (q.params.sql?.includes('timestamp_trunc')) return JSON.stringify([rows.length, rows.reduce((s, r) => s + n(r.count), 0)]);
  return JSON.stringify(rows.map((r) => String(r.id)));
}
