// Minimal gateway logs of ~600 B each (the small edge events of issue 15's memory target), seeded and
// written once as NDJSON next to the demo-generator data.

import { closeSync, existsSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DAYS, END_US, PROJECTS, dataDir, type DataFile } from './data.ts';

const PATHS = ['/rest/v1/todos', '/rest/v1/profiles', '/auth/v1/token', '/auth/v1/user', '/storage/v1/object/public/avatars/a.png', '/realtime/v1/websocket', '/functions/v1/hello', '/rest/v1/rpc/search'];
const METHODS = ['GET', 'GET', 'GET', 'POST', 'PATCH', 'DELETE'];
const STATUS = [200, 200, 200, 200, 201, 204, 304, 400, 401, 404, 500];

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hex(r: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(r() * 16).toString(16);
  return s;
}

export function smallEvent(r: () => number, i: number, events: number): Record<string, unknown> {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const project = `proj${String(Math.floor(r() ** 3 * PROJECTS)).padStart(4, '0')}`;
  const ts = END_US - Math.floor(((events - i) / events) * DAYS * 86_400_000_000);
  const method = pick(METHODS), path = pick(PATHS), status = pick(STATUS);
  const ip = `${Math.floor(r() * 223) + 1}.${Math.floor(r() * 255)}.${Math.floor(r() * 255)}.${Math.floor(r() * 255)}`;
  const host = `${project}.supabase.co`;
  const query = r() < 0.5 ? `?select=*&id=eq.${Math.floor(r() * 100000)}` : '';
  return {
    id: `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-a${hex(r, 3)}-${hex(r, 12)}`,
    timestamp: ts,
    event_message: `${method} | ${status} | ${ip} | ${hex(r, 16)} | https://${host}${path}${query} | ${pick(['supabase-js/2.39.0', 'PostgREST/12', 'curl/8.4.0'])}`,
    project,
    metadata: {
      request: { method, path, url: `https://${host}${path}${query}`, host, cf: { country: pick(['US', 'DE', 'BR', 'IN', 'JP']) } },
      response: { status_code: status, origin_time: Math.floor(r() * 400) },
    },
  };
}

/** Writes (or reuses) `events` small edge events over PROJECTS projects and DAYS days. */
export function smallEdgeData(events: number): DataFile {
  const path = join(dataDir(), `small-edge-${events}-${END_US / 3_600_000_000}.ndjson`);
  if (existsSync(path)) return { path, events, bytes: statSync(path).size };
  const r = rng(11);
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w');
  let buf = '';
  for (let i = 0; i < events; i++) {
    buf += `${JSON.stringify(smallEvent(r, i, events))}\n`;
    if (buf.length > 1 << 20) { writeSync(fd, buf); buf = ''; }
  }
  writeSync(fd, buf);
  closeSync(fd);
  renameSync(tmp, path);
  return { path, events, bytes: statSync(path).size };
}
