// Seeded random events for the endpoint contract tests: every source, several projects, unique
// timestamps over 8 days (so "newest first" is well defined), URLs and paths for usage counting.

import type { ModelEvent } from './model.ts';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SOURCES = ['edge.logs.prod', 'postgres.logs', 'function-relay-logs', 'function-runtime-events', 'auth.logs.prod', 'realtime.logs.prod', 'storage.logs.prod', 'rest.logs.prod', 'pooler.logs.prod'];
const PATHS = ['/rest/v1/items', '/storage/v1/object/x', '/auth/v1/user', '/realtime/v1/ws', '/functions/v1/f', '/graphql/v1', '/restore/x'];
export const PROJECTS = ['alpha', 'beta', 'gamma'];

export function randomEvents(seed: number, n: number, now: number): ModelEvent[] {
  const r = rng(seed);
  const used = new Set<number>();
  const out: ModelEvent[] = [];
  for (let i = 0; i < n; i++) {
    const source = r() < 0.6 ? 'edge.logs.prod' : SOURCES[Math.floor(r() * SOURCES.length)]!;
    let ts: number;
    do ts = now - Math.floor(r() * 8 * 86_400_000_000) - 1; while (used.has(ts));
    used.add(ts);
    const project = PROJECTS[Math.floor(r() * PROJECTS.length)]!;
    const id = `ev-${seed}-${i}`;
    const path = PATHS[Math.floor(r() * PATHS.length)]!;
    const event: Record<string, unknown> = { id, event_message: `message ${i}` };
    event.timestamp = r() < 0.5 ? new Date(ts / 1000).toISOString().replace('Z', '') + String(ts % 1000).padStart(3, '0') + 'Z' : ts;
    switch (source) {
      case 'edge.logs.prod': {
        const request: Record<string, unknown> = { method: 'GET', path };
        if (r() > 0.05) request.url = `https://${project}.api.example.com${path}`;
        event.project = project;
        event.metadata = { request, response: { status_code: r() < 0.9 ? 200 : 500 } };
        if (r() < 0.03) delete event.metadata;
        break;
      }
      case 'function-relay-logs': case 'function-runtime-events':
        event.metadata = { project_ref: project, level: 'info' };
        break;
      case 'realtime.logs.prod': case 'storage.logs.prod':
        event.metadata = { project, level: 'info' };
        break;
      default:
        event.project = project;
        event.metadata = { host: 'h' };
    }
    out.push({ source, event, ts });
  }
  return out;
}

/** Ingests the events in a shuffled order, in random batch sizes, grouped per source. */
export function ingestShuffled(events: ModelEvent[], seed: number, ingest: (source: string, batch: Record<string, unknown>[]) => void): void {
  const r = rng(seed ^ 0x5bd1e995);
  const order = events.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) { const j = Math.floor(r() * (i + 1)); [order[i], order[j]] = [order[j]!, order[i]!]; }
  let i = 0;
  while (i < order.length) {
    const size = 1 + Math.floor(r() * 50);
    const chunk = order.slice(i, i + size).map((k) => events[k]!);
    i += size;
    const bySource = new Map<string, Record<string, unknown>[]>();
    for (const m of chunk) (bySource.get(m.source) ?? bySource.set(m.source, []).get(m.source)!).push(structuredClone(m.event));
    for (const [s, b] of bySource) ingest(s, b);
  }
}
