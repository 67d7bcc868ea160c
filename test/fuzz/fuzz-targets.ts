// The fuzzed entry points and their contract: for any input each must return normally or throw a
// RingqlError (a client error with a code); any other exception, or a hang, is a bug. Inputs come
// from seeded generators: random bytes, and grammar-aware mutations of valid queries and events.

import { parseSql } from '../../src/sql/parse.ts';
import { compileLql } from '../../src/lql/compile.ts';
import { parseEventsBody } from '../../src/endpoints/events-body.ts';
import { querySql } from '../../src/endpoints/query-sql.ts';
import { isRingqlError } from '../../src/core/errors.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { fixtureStore, FIXTURE_NOW } from '../helpers/fixture-store.ts';

/** xorshift32: tiny, seeded, reproducible. */
export class Rng {
  private s: number;
  constructor(seed: number) { this.s = (seed >>> 0) || 0x9e3779b9; }
  next(): number { let x = this.s; x ^= x << 13; x ^= x >>> 17; x ^= x << 5; this.s = x >>> 0; return this.s / 4294967296; }
  int(n: number): number { return Math.floor(this.next() * n); }
  pick<T>(a: readonly T[]): T { return a[this.int(a.length)]!; }
}

const SQL_SEEDS = [
  "select t.id, t.timestamp, r.method from edge_logs t cross join unnest(t.metadata) m cross join unnest(m.request) r where r.method = 'POST' order by t.timestamp desc limit 10",
  "select timestamp_trunc(t.timestamp, minute) as m, countif(regexp_contains(r.path, '/rest')) as n from `edge.logs.prod` t left join unnest(t.metadata) f1 on true left join unnest(f1.request) r on true group by 1 order by 1",
  "with a as (select 1 as x union all select 2) select x, count(*) from a group by x having count(*) > 0",
  "select case when @interval = 'hourly' then 1 else 2 end as k, coalesce(null, 'x'), safe_cast('1' as int64), [1,2][offset(1)]",
  "select approx_quantiles(r.origin_time, 4)[offset(2)] from `edge.logs.prod` t cross join unnest(t.metadata) m cross join unnest(m.response) r",
  "select id from `postgres.logs` where event_message like '%error%' and timestamp > '2025-01-15T00:00:00Z' and project in ('alpha', 'beta')",
  'select format_timestamp("%Y-%m-%d", current_timestamp()), generate_timestamp_array(timestamp("2025-01-01"), timestamp("2025-01-02"), interval 1 hour)',
  'select * from (select id, datetime(timestamp, "UTC") as d from `auth.logs.prod`) where d is not null; ',
];
const SQL_TOKENS = ['select', 'from', 'where', '(', ')', ',', '*', "'x'", '"y"', '`edge.logs.prod`', 'unnest', 'cross join', 'left join', 'on', 'true', 'null', '@p', '[', ']', 'offset(', 'group by', 'order by', 'limit', '1', '-', '||', 'case', 'when', 'then', 'end', 'with', 'as', 'union all', ';', '--', '/*', '*/', '\\', '\u0000', '😀', 'é', 'interval 1 day', 'count(*)', 'regexp_contains(', "'(a+)+$'", 'timestamp_trunc(', 'not', 'is', 'in', 'between', 'and', 'or', 'exists(', 'insert into', 'drop table'];

const LQL_SEEDS = ['error', 'f:edge_logs m.response.status_code:>=500', '-"timeout" m.request.method:POST t:last@1hour', 'c:count(*) c:group_by(t::minute) f:edge_logs', 'm.request.path:~"^/rest" s:m.request.path', 'f:postgres_logs m.parsed.error_severity:ERROR t:2025-01-01..2025-01-02'];
const LQL_TOKENS = ['f:', 'm.', 'c:', 's:', 't:', ':', ':~', ':>', ':>=', '..', '"', '~', '-', '(', ')', '*', 'count', 'group_by', 'last@', '1hour', 'NULL', 'true', ' ', '@', '\\', '😀'];

const EVENT_SEEDS = [
  '{"batch":[{"event_message":"hi","project":"p","metadata":{"request":{"path":"/rest"}}}]}',
  '[{"id":"a","timestamp":"2025-01-15T10:00:00Z","metadata":{"a":[1,2,{"b":null}]}}]',
  '{"timestamp":1736935200000000,"message":"x"}\n{"timestamp":"2025-01-15 10:00:00+02:00","project":"q"}',
];

/** A mutation of `text`: token insertions, deletions, swaps, duplications, deep nesting, huge literals. */
export function mutate(rng: Rng, text: string, tokens: readonly string[]): string {
  let s = text;
  const n = 1 + rng.int(4);
  for (let k = 0; k < n; k++) {
    const at = rng.int(s.length + 1);
    switch (rng.int(8)) {
      case 0: s = s.slice(0, at) + ' ' + rng.pick(tokens) + ' ' + s.slice(at); break;
      case 1: s = s.slice(0, at) + s.slice(at + 1 + rng.int(12)); break;
      case 2: { const b = rng.int(s.length + 1); s = s.slice(0, Math.min(at, b)) + s.slice(Math.max(at, b)) + s.slice(Math.min(at, b), Math.max(at, b)); break; }
      case 3: s = s.slice(0, at) + s.slice(at, at + 20 + rng.int(40)).repeat(2 + rng.int(3)) + s.slice(at); break;
      case 4: { const d = 5 + rng.int(200); s = s.slice(0, at) + '('.repeat(d) + '1' + ')'.repeat(d) + s.slice(at); break; }
      case 5: s = s.slice(0, at) + "'" + 'x'.repeat(rng.int(5000)) + "'" + s.slice(at); break;
      case 6: s = s.slice(0, at) + String.fromCharCode(rng.int(0x10000)) + s.slice(at); break;
      default: s = s.slice(0, at) + rng.pick(tokens) + s.slice(at); break;
    }
  }
  return s;
}

export function randomText(rng: Rng): string {
  const len = rng.int(200);
  let s = '';
  for (let i = 0; i < len; i++) s += String.fromCharCode(rng.int(4) === 0 ? rng.int(0x10000) : 32 + rng.int(95));
  return s;
}

export interface Target {
  name: string;
  input(rng: Rng): string;
  run(input: string): unknown;
}

let store: Store | null = null;
const storeOnce = (): Store => (store ??= fixtureStore());
const CTES = [
  { name: 'edge_logs', columns: ['timestamp', 'id', 'event_message', 'metadata'] },
  { name: 'postgres_logs', columns: ['timestamp', 'id', 'event_message', 'metadata'] },
];

export const TARGETS: Target[] = [
  { name: 'sql parser', input: (r) => (r.int(5) === 0 ? randomText(r) : mutate(r, r.pick(SQL_SEEDS), SQL_TOKENS)), run: (t) => parseSql(t) },
  { name: 'lql compiler', input: (r) => (r.int(5) === 0 ? randomText(r) : mutate(r, r.pick(LQL_SEEDS), LQL_TOKENS)), run: (t) => compileLql(t, CTES) },
  {
    name: 'ingest body',
    input: (r) => (r.int(4) === 0 ? randomText(r) : mutate(r, r.pick(EVENT_SEEDS), ['{', '}', '[', ']', ',', ':', '"', 'null', '1e999', '-0', '"\\u0000"', '{"metadata":', '\n'])),
    run: (t) => {
      const events = parseEventsBody(Buffer.from(t), 'application/json');
      // What was parsed must also be ingestible or rejected with reasons, never a crash.
      new Store(defaultStoreConfig({})).source('edge.logs.prod')!.ingest(events, FIXTURE_NOW);
      return events;
    },
  },
  {
    name: 'query engine',
    input: (r) => mutate(r, r.pick(SQL_SEEDS).replace(/edge_logs/g, '`edge.logs.prod`'), SQL_TOKENS),
    run: (t) => querySql(storeOnce(), t, { nowUs: FIXTURE_NOW, params: new Map([['p', 'x'], ['interval', 'hourly']]), budget: { timeoutMs: 2000, maxRows: 2_000_000 } }),
  },
];

export interface Finding {
  target: string;
  input: string;
  error: string;
}

/** Runs one input; returns a finding when the target broke its contract. */
export function check(t: Target, input: string): Finding | null {
  try {
    t.run(input);
    return null;
  } catch (e) {
    if (isRingqlError(e)) return null;
    return { target: t.name, input, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}
