// bench/small-events.ts's ~480 B edge event built straight as NDJSON text (no object, no JSON.stringify,
// hex from 32-bit draws), for benches that stream tens of millions of them (bench/events-held.ts).

import { DAYS, END_US, PROJECTS } from './data.ts';
import { rng } from './small-events.ts';

const PATHS = ['/rest/v1/todos', '/rest/v1/profiles', '/auth/v1/token', '/auth/v1/user', '/storage/v1/object/public/avatars/a.png', '/realtime/v1/websocket', '/functions/v1/hello', '/rest/v1/rpc/search'];
const METHODS = ['GET', 'GET', 'GET', 'POST', 'PATCH', 'DELETE'];
const STATUS = [200, 200, 200, 200, 201, 204, 304, 400, 401, 404, 500];
const AGENTS = ['supabase-js/2.39.0', 'PostgREST/12', 'curl/8.4.0'];
const COUNTRIES = ['US', 'DE', 'BR', 'IN', 'JP'];

/** Seeded generator of event lines; event `i` of `events` lies at its share of the DAYS-day window. */
export class SmallEventText {
  private readonly r: () => number;
  constructor(seed: number, private readonly events: number) { this.r = rng(seed); }

  private hex8(): string {
    return ((this.r() * 4294967296) >>> 0).toString(16).padStart(8, '0');
  }

  private pick<T>(a: readonly T[]): T {
    return a[Math.floor(this.r() * a.length)]!;
  }

  line(i: number): string {
    const r = this.r;
    const project = `proj${String(Math.floor(r() ** 3 * PROJECTS)).padStart(4, '0')}`;
    const ts = END_US - Math.floor(((this.events - i) / this.events) * DAYS * 86_400_000_000);
    const method = this.pick(METHODS), path = this.pick(PATHS), status = this.pick(STATUS);
    const ip = `${Math.floor(r() * 223) + 1}.${Math.floor(r() * 255)}.${Math.floor(r() * 255)}.${Math.floor(r() * 255)}`;
    const host = `${project}.supabase.co`;
    const query = r() < 0.5 ? `?select=*&id=eq.${Math.floor(r() * 100000)}` : '';
    const a = this.hex8(), b = this.hex8(), c = this.hex8(), d = this.hex8();
    const id = `${a}-${b.slice(0, 4)}-4${b.slice(4, 7)}-a${c.slice(0, 3)}-${c.slice(3, 8)}${d.slice(0, 7)}`;
    const url = `https://${host}${path}${query}`;
    return `{"id":"${id}","timestamp":${ts},"event_message":"${method} | ${status} | ${ip} | ${this.hex8()}${this.hex8()} | ${url} | ${this.pick(AGENTS)}","project":"${project}",` +
      `"metadata":{"request":{"method":"${method}","path":"${path}","url":"${url}","host":"${host}","cf":{"country":"${this.pick(COUNTRIES)}"}},"response":{"status_code":${status},"origin_time":${Math.floor(r() * 400)}}}}`;
  }
}
