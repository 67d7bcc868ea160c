// Ingest bench bodies: the demo generator's events of every source, and small (~600 B) edge events,
// in 500-event JSON bodies ({"batch":[...]}) per source.

import { generateEvents } from '../src/gen/generate.ts';
import { serializeEvent } from '../src/gen/serialize.ts';

export interface Body {
  source: string;
  events: number;
  bytes: Buffer;
}

const BATCH = 500;

export function demoBodies(events: number, endUs: number): Body[] {
  const lines = new Map<string, string[]>();
  const out: Body[] = [];
  const flush = (source: string, l: string[]): void => {
    out.push({ source, events: l.length, bytes: Buffer.from(`{"batch":[${l.join(',')}]}`) });
    l.length = 0;
  };
  for (const { source, event } of generateEvents({ events, projects: 5, days: 1, seed: 42, endUs })) {
    let l = lines.get(source);
    if (!l) lines.set(source, (l = []));
    l.push(serializeEvent(source, event));
    if (l.length === BATCH) flush(source, l);
  }
  for (const [source, l] of lines) if (l.length) flush(source, l);
  return out;
}

const PATHS = ['/rest/v1/orders', '/auth/v1/token', '/storage/v1/object/public/avatars/a.png', '/functions/v1/hello', '/rest/v1/rpc/search'];
const METHODS = ['GET', 'POST', 'PATCH', 'DELETE'];

/** An edge event of ~600 bytes: request, response, a few headers, project and an ISO timestamp. */
export function smallEdgeEvent(i: number, endUs: number): string {
  const path = PATHS[i % PATHS.length]!;
  const ts = new Date((endUs - (i % 86_400) * 1_000_000) / 1000).toISOString();
  return JSON.stringify({
    id: `0b7e3f1a-5c2d-4e8f-9a1b-${String(i).padStart(12, '0')}`,
    timestamp: ts,
    event_message: `${METHODS[i % 4]} | ${200 + (i % 5)} | 203.0.113.${i % 250} | cf-ray-${(i * 7919).toString(16)} | https://abcdefghij.example.co${path}`,
    project: `proj${i % 5}`,
    metadata: {
      request: { method: METHODS[i % 4], path, url: `https://abcdefghij.example.co${path}?limit=${i % 100}`, host: 'abcdefghij.example.co',
        headers: { user_agent: 'supabase-js/2.39.0', cf_connecting_ip: `203.0.113.${i % 250}` } },
      response: { status_code: 200 + (i % 5), origin_time: 12 + (i % 300), headers: { content_type: 'application/json', cf_cache_status: 'DYNAMIC' } },
    },
  });
}

export function smallEdgeBodies(events: number, endUs: number): Body[] {
  const out: Body[] = [];
  for (let i = 0; i < events; i += BATCH) {
    const l: string[] = [];
    for (let k = i; k < Math.min(events, i + BATCH); k++) l.push(smallEdgeEvent(k, endUs));
    out.push({ source: 'edge.logs.prod', events: l.length, bytes: Buffer.from(`{"batch":[${l.join(',')}]}`) });
  }
  return out;
}
