// An independent, obvious model of what the two built-in endpoints must return (SPEC §4),
// computed straight from the events in plain TypeScript, for the endpoint contract tests.

export interface ModelEvent {
  source: string;
  event: Record<string, unknown>;
  /** µs */
  ts: number;
}

const PROJECT_PATH: Record<string, string[]> = {
  'edge.logs.prod': ['project'], 'postgres.logs': ['project'], 'auth.logs.prod': ['project'], 'rest.logs.prod': ['project'], 'pooler.logs.prod': ['project'],
  'function-relay-logs': ['metadata', 'project_ref'], 'function-runtime-events': ['metadata', 'project_ref'],
  'realtime.logs.prod': ['metadata', 'project'], 'storage.logs.prod': ['metadata', 'project'],
};

export function projectOf(source: string, e: Record<string, unknown>): unknown {
  let v: unknown = e;
  for (const k of PROJECT_PATH[source]!) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** logs.all: ids of `source` rows of `project` with start < ts <= end, newest first, at most `limit`. */
export function logsAllIds(events: ModelEvent[], source: string, project: string, start: number | null, end: number | null, limit: number): string[] {
  return events
    .filter((m) => m.source === source && projectOf(source, m.event) === project)
    .filter((m) => (start === null || m.ts > start) && (end === null || m.ts <= end))
    .sort((a, b) => b.ts - a.ts)
    .slice(0, limit)
    .map((m) => m.event.id as string);
}

const WINDOW_US = { minutely: 3_600_000_000, hourly: 3_600_000_000, daily: 7 * 86_400_000_000 };
const BUCKET_US = { minutely: 60_000_000, hourly: 3_600_000_000, daily: 86_400_000_000 };

function datetime(us: number): string {
  return new Date(us / 1000).toISOString().replace(/\.\d{3}Z$/, '');
}

/** usage.api-counts rows for a regex given as a JS RegExp equivalent of the RE2 pattern. */
export function usageRows(events: ModelEvent[], interval: 'minutely' | 'hourly' | 'daily', re: RegExp, now: number): Record<string, unknown>[] {
  const start = now - WINDOW_US[interval];
  const size = BUCKET_US[interval];
  const buckets = new Map<number, number[]>();
  for (const m of events) {
    if (m.source !== 'edge.logs.prod' || m.ts < start) continue;
    const req = ((m.event.metadata as Record<string, unknown> | undefined)?.request ?? null) as Record<string, unknown> | null;
    const url = req?.url;
    if (typeof url !== 'string' || !re.test(url)) continue;
    const b = Math.floor(m.ts / size) * size;
    const c = buckets.get(b) ?? [0, 0, 0, 0];
    const path = typeof req!.path === 'string' ? req!.path : '';
    ['/rest', '/storage', '/auth', '/realtime'].forEach((p, i) => { if (path.includes(p)) c[i]!++; });
    buckets.set(b, c);
  }
  return [...buckets.entries()].sort((a, b) => a[0] - b[0]).map(([b, c]) => ({
    timestamp: datetime(b), total_rest_requests: c[0], total_storage_requests: c[1], total_auth_requests: c[2], total_realtime_requests: c[3],
  }));
}
