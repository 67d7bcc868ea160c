// The benchmark's queries, each as a ringql request (endpoint + params) and the equivalent DuckDB SQL
// over table `edge` (columns id, timestamp BIGINT µs, event_message, project, metadata STRUCT).

import { END_US } from './data.ts';

export interface BenchQuery {
  name: string;
  endpoint: 'logs.all' | 'usage.api-counts';
  params: Record<string, string>;
  duck: string;
}

const iso = (us: number): string => new Date(us / 1000).toISOString();
const q = (s: string): string => `'${s.replace(/'/g, "''")}'`;

export function benchQueries(project: string): BenchQuery[] {
  const lo = END_US - 24 * 3600e6, hi = END_US - 12 * 3600e6;
  const dashboard = "select t.id, t.timestamp, r.method, r.path from edge_logs t cross join unnest(t.metadata) m cross join unnest(m.request) r where r.method = 'POST' order by t.timestamp desc limit 100";
  // The last 6 hours: 360 minute buckets at most, under logs.all's max_limit of 1000 rows.
  const chart = 'select timestamp_trunc(t.timestamp, minute) as minute, count(*) as count from edge_logs t where t.timestamp > timestamp_sub(current_timestamp(), interval 6 hour) group by minute order by minute';
  const windows = { minutely: 60 * 60e6, hourly: 3600e6, daily: 7 * 86400e6 } as const;
  const unit = { minutely: 'minute', hourly: 'hour', daily: 'day' } as const;
  const counts = (iv: keyof typeof windows): string => `select strftime(date_trunc('${unit[iv]}', make_timestamp(timestamp)), '%Y-%m-%dT%H:%M:%S') as timestamp,
      count_if(contains(metadata.request.path, '/rest')) as total_rest_requests,
      count_if(contains(metadata.request.path, '/storage')) as total_storage_requests,
      count_if(contains(metadata.request.path, '/auth')) as total_auth_requests,
      count_if(contains(metadata.request.path, '/realtime')) as total_realtime_requests
    from edge where timestamp >= ${END_US - windows[iv]} and regexp_matches(metadata.request.url, ${q(project)})
    group by 1 order by 1`;
  return [
    { name: 'logs.all default', endpoint: 'logs.all', params: { project },
      duck: `select id, timestamp, event_message, metadata from edge where project = ${q(project)} order by timestamp desc limit 100` },
    { name: 'logs.all time bounds', endpoint: 'logs.all', params: { project, iso_timestamp_start: iso(lo), iso_timestamp_end: iso(hi) },
      duck: `select id, timestamp, event_message, metadata from edge where project = ${q(project)} and timestamp > ${lo} and timestamp <= ${hi} order by timestamp desc limit 100` },
    { name: 'sandbox dashboard list', endpoint: 'logs.all', params: { project, sql: dashboard },
      duck: `select id, timestamp, metadata.request.method as method, metadata.request.path as path from edge where project = ${q(project)} and metadata.request.method = 'POST' order by timestamp desc limit 100` },
    { name: 'sandbox count(*)', endpoint: 'logs.all', params: { project, sql: 'select count(*) as count from edge_logs' },
      duck: `select count(*) as count from edge where project = ${q(project)}` },
    { name: 'sandbox per-minute chart', endpoint: 'logs.all', params: { project, sql: chart },
      duck: `select date_trunc('minute', make_timestamp(timestamp)) as minute, count(*) as count from edge where project = ${q(project)} and timestamp > ${END_US - 6 * 3600e6} group by 1 order by 1` },
    ...(['minutely', 'hourly', 'daily'] as const).map((iv): BenchQuery => ({
      name: `usage.api-counts ${iv}`, endpoint: 'usage.api-counts', params: { interval: iv, project }, duck: counts(iv),
    })),
  ];
}
