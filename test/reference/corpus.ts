// Seeded corpus for the differential test: small random event sets for three sources (with NULLs,
// missing fields, duplicate timestamps, shuffled batches) and random dialect queries as SQL text.

import type { Value } from '../../src/core/values.ts';

export type Rng = () => number;

export function rng(seed: number): Rng {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const chance = (r: Rng, p: number): boolean => r() < p;
const int = (r: Rng, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

export const SOURCES = ['edge.logs.prod', 'postgres.logs', 'function-runtime-events'] as const;
export type SourceName = (typeof SOURCES)[number];

/** Start of the generated data: 2025-01-14T22:30:00Z in µs (the span crosses midnight, so DAY buckets split). */
export const BASE_US = Date.UTC(2025, 0, 14, 22, 30) * 1000;
/** Data spans a few hours after BASE_US; the query clock is just after it. */
export const SPAN_US = 4 * 3600 * 1_000_000;
export const NOW_US = BASE_US + SPAN_US + 60_000_000;

const ALL_PROJECTS = ['alpha', 'beta', 'gamma', 'delta'];
const METHODS = ['GET', 'POST', 'get', 'DELETE', 'PATCH'];
const PATHS = ['/rest/v1/items', '/rest/v1/users', '/auth/v1/user', '/auth/v1/token', '/storage/v1/object/x', '/realtime/v1/ws', '/functions/v1/hello', '/graphql/v1', '/restore'];
const STATUS = [200, 200, 200, 201, 204, 301, 400, 401, 404, 500, 502, 503];
const SEVERITIES = ['LOG', 'LOG', 'ERROR', 'FATAL', 'WARNING', 'PANIC'];
const USERS = ['postgres', 'authenticator', 'service_admin', 'anon'];
const LEVELS = ['info', 'info', 'debug', 'error', 'warning'];
const FUNCTIONS = ['fn-a', 'fn-b', 'fn-c'];
const MESSAGES = ['request ok', 'connection timeout', 'ERROR: relation missing', 'user logged in', 'Timeout waiting', 'boot', 'shutdown error', ''];

export interface CorpusEvent {
  source: SourceName;
  /** The event as posted to the store. */
  event: Record<string, unknown>;
  /** Its timestamp in µs (what the engine must expose). */
  us: number;
}

/** ISO text with exact microseconds, sometimes with a `+hh:mm` zone. */
function isoOf(r: Rng, us: number): string {
  const ms = Math.floor(us / 1000);
  const frac = String(us % 1_000_000).padStart(6, '0');
  if (chance(r, 0.3)) {
    const off = pick(r, [60, 120, -300]);
    const local = new Date(ms + off * 60_000).toISOString().slice(0, 19);
    const sign = off < 0 ? '-' : '+';
    const a = Math.abs(off);
    return `${local}.${frac}${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
  }
  return new Date(ms).toISOString().slice(0, 19) + '.' + frac + 'Z';
}

/** A timestamp field in one of the accepted spellings; the µs value is what it means. */
function timestampField(r: Rng, us: number): unknown {
  const k = r();
  if (k < 0.4) return us;
  if (k < 0.8) return isoOf(r, us);
  if (us % 1000 === 0) return us / 1000; // 13 digits: ms
  return us;
}

export interface EventSet {
  events: CorpusEvent[];
  projects: string[];
}

/** `scale` multiplies the number of events per source (1 ≈ 100 edge events). */
export function randomEvents(seed: number, scale = 1): EventSet {
  const r = rng(seed);
  const projects = ALL_PROJECTS.slice(0, int(r, 2, 4));
  const events: CorpusEvent[] = [];
  const usedTs: number[] = [];
  const ts = (): number => {
    if (usedTs.length > 0 && chance(r, 0.08)) return pick(r, usedTs); // duplicate timestamp
    let us = BASE_US + Math.floor(r() * SPAN_US);
    if (chance(r, 0.2)) us -= us % 1_000_000; // whole seconds (ms-number spelling possible)
    usedTs.push(us);
    return us;
  };
  let n = 0;
  const id = (prefix: string): string => `${prefix}-${seed}-${n++}`;
  const message = (e: Record<string, unknown>): void => {
    const k = r();
    if (k < 0.08) return; // absent
    if (k < 0.14) e.event_message = null;
    else if (k < 0.2) e.message = pick(r, MESSAGES); // `message` stands in for event_message
    else e.event_message = pick(r, MESSAGES);
    if (e.event_message !== undefined && chance(r, 0.03)) e.message = 'extra column'; // then `message` is a column
  };

  for (let i = int(r, 60, 140) * scale; i > 0; i--) {
    const us = ts();
    const e: Record<string, unknown> = { id: id('e'), timestamp: timestampField(r, us) };
    message(e);
    if (!chance(r, 0.07)) e.project = pick(r, projects);
    if (!chance(r, 0.06)) {
      const path = pick(r, PATHS);
      const request: Record<string, unknown> = { method: pick(r, METHODS), path };
      if (!chance(r, 0.1)) request.url = `https://${pick(r, projects)}.example.co${path}`;
      if (chance(r, 0.25)) request.search = pick(r, ['?select=*', '?id=eq.1', '?limit=10', '']);
      if (chance(r, 0.05)) request.method = null;
      if (chance(r, 0.5)) {
        const headers: Record<string, unknown> = { user_agent: pick(r, ['curl/8', 'Mozilla/5.0', 'node']) };
        if (chance(r, 0.6)) headers.x_real_ip = `10.0.0.${int(r, 1, 4)}`;
        request.headers = headers;
      }
      const metadata: Record<string, unknown> = { request };
      if (chance(r, 0.4)) metadata.tags = Array.from({ length: int(r, 0, 3) }, () => pick(r, ['api', 'cdn', 'slow', 'retry']));
      if (!chance(r, 0.08)) {
        const response: Record<string, unknown> = { status_code: chance(r, 0.05) ? null : pick(r, STATUS) };
        if (!chance(r, 0.1)) response.origin_time = int(r, 1, 900);
        metadata.response = response;
      }
      e.metadata = metadata;
    }
    events.push({ source: 'edge.logs.prod', event: e, us });
  }
  for (let i = int(r, 30, 80) * scale; i > 0; i--) {
    const us = ts();
    const e: Record<string, unknown> = { id: id('p'), timestamp: timestampField(r, us) };
    message(e);
    if (!chance(r, 0.05)) e.project = pick(r, projects);
    if (chance(r, 0.3)) e.cluster = { region: pick(r, ['eu', 'us']), size: int(r, 1, 3) };
    if (!chance(r, 0.06)) {
      const parsed: Record<string, unknown> = {};
      if (!chance(r, 0.07)) parsed.error_severity = pick(r, SEVERITIES);
      parsed.user_name = chance(r, 0.1) ? null : pick(r, USERS);
      e.metadata = { parsed, host: 'db-' + pick(r, ['1', '2']) };
    }
    events.push({ source: 'postgres.logs', event: e, us });
  }
  for (let i = int(r, 30, 80) * scale; i > 0; i--) {
    const us = ts();
    const e: Record<string, unknown> = { id: id('f'), timestamp: timestampField(r, us) };
    message(e);
    if (!chance(r, 0.05)) {
      const metadata: Record<string, unknown> = { level: pick(r, LEVELS), function_id: pick(r, FUNCTIONS) };
      if (!chance(r, 0.06)) metadata.project_ref = pick(r, projects);
      if (chance(r, 0.05)) metadata.level = null;
      e.metadata = metadata;
    }
    events.push({ source: 'function-runtime-events', event: e, us });
  }
  return { events, projects };
}

/** Events in a random order, in random batch sizes, grouped per source within a batch. */
export function shuffledBatches(events: CorpusEvent[], seed: number): { source: SourceName; batch: Record<string, unknown>[] }[] {
  const r = rng(seed ^ 0x5bd1e995);
  const order = events.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const out: { source: SourceName; batch: Record<string, unknown>[] }[] = [];
  let i = 0;
  while (i < order.length) {
    const size = 1 + Math.floor(r() * 40);
    const chunk = order.slice(i, i + size).map((k) => events[k]!);
    i += size;
    const bySource = new Map<SourceName, Record<string, unknown>[]>();
    for (const c of chunk) {
      const list = bySource.get(c.source) ?? [];
      list.push(structuredClone(c.event));
      bySource.set(c.source, list);
    }
    for (const [source, batch] of bySource) out.push({ source, batch });
  }
  return out;
}

// ─── Rows as the engine exposes them (SPEC §2) ──────────────────────────────────────────────

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every JSON object becomes an array of one record, recursively; arrays of objects are arrays of records. */
export function recordShape(v: unknown): Value {
  if (isPlainObject(v)) return [recordFields(v)];
  if (Array.isArray(v)) return v.map((x) => (isPlainObject(x) ? recordFields(x) : recordShape(x)));
  return (v ?? null) as Value;
}

function recordFields(o: Record<string, unknown>): { [k: string]: Value } {
  const out: { [k: string]: Value } = {};
  for (const [k, x] of Object.entries(o)) out[k] = recordShape(x);
  return out;
}

/** `message` replaces an absent event_message (and is then no column of its own). */
function messageStandsIn(ev: Record<string, unknown>): boolean {
  return ev.event_message === undefined && (typeof ev.message === 'string' || ev.message === null);
}

/** The table row of one event: id, timestamp (µs), event_message, metadata (record-shaped), other keys. */
export function exposedRow(e: CorpusEvent): Record<string, Value> {
  const ev = e.event;
  const row: Record<string, Value> = {
    id: ev.id as string,
    timestamp: e.us,
    event_message: (messageStandsIn(ev) ? ev.message : ev.event_message ?? null) as Value,
    metadata: ev.metadata === undefined ? [] : recordShape(ev.metadata),
  };
  for (const [k, v] of Object.entries(ev)) {
    if (k === 'id' || k === 'timestamp' || k === 'event_message' || k === 'metadata') continue;
    if (k === 'message' && messageStandsIn(ev)) continue;
    row[k] = recordShape(v);
  }
  return row;
}

export function tablesOf(events: CorpusEvent[]): Map<string, Record<string, Value>[]> {
  const m = new Map<string, Record<string, Value>[]>();
  for (const s of SOURCES) m.set(s, []);
  for (const e of events) m.get(e.source)!.push(exposedRow(e));
  return m;
}

// ─── Queries ────────────────────────────────────────────────────────────────────────────────

export interface CorpusQuery {
  sql: string;
  template: string;
}

/** Parameters every generated query may use. */
export function corpusParams(set: EventSet): Map<string, string | null> {
  return new Map<string, string | null>([
    ['project', set.projects[0]!],
    ['start', new Date((BASE_US + SPAN_US / 4) / 1000).toISOString()],
    ['level', 'error'],
  ]);
}

/** Exact µs text of a timestamp: `Z`, a `+hh:mm` zone, or a space and no zone. */
function exactText(r: Rng, us: number): string {
  const frac = '.' + String(us % 1_000_000).padStart(6, '0');
  const base = new Date(Math.floor(us / 1000)).toISOString().slice(0, 19);
  const k = r();
  if (k < 0.4) return base + frac + 'Z';
  if (k < 0.7) return base.replace('T', ' ') + frac;
  const local = new Date(Math.floor(us / 1000) + 2 * 3_600_000).toISOString().slice(0, 19);
  return local + frac + '+02:00';
}

const iso = (us: number): string => new Date(Math.floor(us / 1000)).toISOString();

interface GroupKey {
  sel: string;
  alias: string;
  expr: string;
  explicit?: boolean;
}

class QueryGen {
  constructor(readonly r: Rng, readonly projects: string[], readonly stamps: number[]) {}

  project(): string {
    return chance(this.r, 0.15) ? 'nobody' : pick(this.r, this.projects);
  }
  /** A time literal; often exactly an event's timestamp, to probe inclusive/exclusive scan bounds. */
  timeLiteral(): string {
    if (this.stamps.length > 0 && chance(this.r, 0.4)) return `'${exactText(this.r, pick(this.r, this.stamps))}'`;
    const us = BASE_US + Math.floor(this.r() * SPAN_US);
    return `'${chance(this.r, 0.5) ? iso(us) : iso(us).replace('T', ' ').replace('Z', '')}'`;
  }

  /** A boolean condition over an edge row (t, m, r, s are in scope when `unnested`). */
  edgeAtom(unnested: boolean): string {
    const r = this.r;
    const atoms: (() => string)[] = [
      () => `t.project = '${this.project()}'`,
      () => `t.project in ('${this.project()}', '${this.project()}')`,
      () => (chance(r, 0.5) ? 't.project is null' : 't.project is not null'),
      () => 't.project = @project',
      () => `t.timestamp >= ${this.timeLiteral()}`,
      () => `t.timestamp < timestamp(${this.timeLiteral()})`,
      () => `t.timestamp > timestamp_sub(current_timestamp(), interval ${int(r, 10, 200)} minute)`,
      () => `t.timestamp between timestamp_sub(current_timestamp(), interval ${int(r, 1, 3)} hour) and current_timestamp()`,
      () => 't.timestamp >= timestamp(@start)',
      () => `t.timestamp ${pick(r, ['>', '>=', '<', '<=', '=', '!='])} ${this.timeLiteral()}`,
      () => `t.timestamp between ${this.timeLiteral()} and ${this.timeLiteral()}`,
      () => `t.timestamp ${pick(r, ['>', '<='])} @start`,
      () => `t.project ${pick(r, ['!=', '<>', '>', '<'])} '${this.project()}'`,
      () => `coalesce(t.project, 'none') = '${pick(r, ['none', ...this.projects])}'`,
      () => `t.event_message like '%${pick(r, ['error', 'ok', 'time', 'E'])}%'`,
      () => `regexp_contains(t.event_message, '${pick(r, ['(?i)timeout', '^user', 'error$', '[A-Z]{5}'])}')`,
      () => 't.event_message is null',
    ];
    if (unnested) {
      atoms.push(
        () => `s.status_code ${pick(r, ['=', '>=', '<', '!=', '<>'])} ${pick(r, [200, 400, 404, 500])}`,
        () => `s.status_code between ${pick(r, [200, 400])} and ${pick(r, [404, 499, 599])}`,
        () => `s.status_code in (${pick(r, [200, 201])}, ${pick(r, [404, 500, 502])})`,
        () => `s.status_code not in (200, 204)`,
        () => 's.status_code is null',
        () => `r.path like '${pick(r, ['/rest%', '/auth/%', '%v1%', '/_est%', '%user'])}'`,
        () => `r.path not like '/rest%'`,
        () => `r.path = '${pick(r, PATHS)}'`,
        () => `regexp_contains(r.path, '${pick(r, ['^/(rest|auth)', 'v1/[a-z]+$', 'object'])}')`,
        () => `starts_with(r.path, '${pick(r, ['/storage', '/rest', '/re'])}')`,
        () => `strpos(r.url, '${this.project()}') > 0`,
        () => (chance(r, 0.5) ? 'r.search is null' : 'r.search is not null'),
        () => `lower(r.method) = '${pick(r, ['get', 'post'])}'`,
        () => `r.method in ('GET', 'POST')`,
        () => `s.origin_time > ${int(r, 100, 800)}`,
        () => `coalesce(s.origin_time, 0) < ${int(r, 100, 800)}`,
        () => `if(s.status_code >= 500, true, false)`,
      );
    }
    return pick(r, atoms)();
  }

  /** 1–3 atoms with AND/OR/NOT. */
  condition(atom: () => string): string {
    const r = this.r;
    let c = atom();
    if (chance(r, 0.15)) c = `not (${c})`;
    for (let k = int(r, 0, 2); k > 0; k--) {
      const next = chance(r, 0.15) ? `not ${atom()}` : atom();
      c = chance(r, 0.65) ? `${c} and ${next}` : `(${c} or ${next})`;
    }
    return c;
  }

  edgeFrom(): { from: string; unnested: boolean } {
    const r = this.r;
    const k = r();
    if (k < 0.45) {
      return { from: 'from `edge.logs.prod` t cross join unnest(t.metadata) as m cross join unnest(m.request) as r cross join unnest(m.response) as s', unnested: true };
    }
    if (k < 0.6) return { from: 'from `edge.logs.prod` as t, unnest(t.metadata) m, unnest(m.request) r, unnest(m.response) s', unnested: true };
    if (k < 0.85) {
      return { from: 'from `edge.logs.prod` t left join unnest(t.metadata) as m on true left join unnest(m.request) as r on true left join unnest(m.response) as s on true', unnested: true };
    }
    return { from: 'from `edge.logs.prod` t', unnested: false };
  }

  /** Non-aggregate projections over edge rows; names unique. */
  edgeProjections(unnested: boolean, n: number): string[] {
    const r = this.r;
    const pool: [string, string | null][] = [
      ['t.id', 'id'], ['t.timestamp', 'timestamp'], ['t.project', 'project'], ['t.event_message', 'event_message'],
      ['datetime(t.timestamp, \'UTC\')', null], ['datetime(t.timestamp, \'UTC\') as dt', 'dt'],
      ['unix_micros(t.timestamp) as us', 'us'], ['timestamp_trunc(t.timestamp, minute) as minute', 'minute'],
      ['timestamp_add(t.timestamp, interval 1 hour) as later', 'later'], ['ifnull(t.project, \'none\') as proj', 'proj'],
      ['safe_cast(t.project as int64) as pnum', 'pnum'], ['length(t.event_message)', null],
      ['upper(t.project)', null], ['cast(t.timestamp as string) as ts_text', 'ts_text'],
      ['t.project || \'/\' || t.id as key', 'key'],
    ];
    if (unnested) {
      pool.push(
        ['r.method', 'method'], ['r.path', 'path'], ['r.url', 'url'], ['r.search', 'search'], ['s.status_code', 'status_code'],
        ['s.origin_time', 'origin_time'],
        ['case when s.status_code >= 500 then \'error\' when s.status_code >= 400 then \'warn\' else \'ok\' end as class', 'class'],
        ['case s.status_code when 200 then \'ok\' when 404 then \'missing\' end as label', 'label'],
        ['coalesce(r.search, \'(none)\') as search_or', 'search_or'], ['if(s.status_code = 200, \'ok\', \'bad\')', null],
        ['safe_cast(s.status_code as string) as code_s', 'code_s'], ['cast(s.origin_time as float64) / 1000 as secs', 'secs'],
        ['concat(r.method, \' \', r.path) as line', 'line'], ['length(r.path) as plen', 'plen'], ['upper(r.method)', null],
        ['s.origin_time * 2 + 1 as o2', 'o2'], ['strpos(r.path, \'/v1\') as v1pos', 'v1pos'],
        ['starts_with(r.path, \'/rest\') as is_rest', 'is_rest'], ['r.path like \'%user%\' as userish', 'userish'],
        ['safe_cast(r.search as int64) as snum', 'snum'], ['-s.origin_time as neg', 'neg'],
        ['s.status_code in (200, 201) as good', 'good'], ['m.request', 'request'],
      );
    }
    const out: string[] = [];
    const names = new Set<string>();
    for (let tries = 0; out.length < n && tries < 50; tries++) {
      const [expr, name] = pick(r, pool);
      if (name !== null && names.has(name)) continue;
      if (out.includes(expr)) continue;
      if (name !== null) names.add(name);
      out.push(expr);
    }
    return out;
  }

  /** A plain SELECT over edge with filters, maybe ORDER BY + LIMIT (total via t.id). */
  edgeSelect(): string {
    const r = this.r;
    const { from, unnested } = this.edgeFrom();
    const distinct = chance(r, 0.1) ? 'distinct ' : '';
    // BigQuery neither orders by nor de-duplicates ARRAY values: keep m.request out of those.
    const proj = this.edgeProjections(unnested, int(r, 1, 5)).filter((p) => !(distinct && p === 'm.request'));
    if (proj.length === 0) proj.push('t.id');
    let sql = `select ${distinct}${proj.join(', ')}${chance(r, 0.1) ? ',' : ''} ${from}`;
    if (chance(r, 0.85)) sql += ` where ${this.condition(() => this.edgeAtom(unnested))}`;
    if (distinct) {
      if (chance(r, 0.5)) sql += ` order by ${proj.map((_, i) => i + 1).join(', ')}`;
      return sql;
    }
    const k = r();
    if (k < 0.5) {
      const first = pick(r, ['t.timestamp', 't.project', ...(unnested ? ['s.status_code', 'r.path'] : [])]);
      const dir = pick(r, ['', ' asc', ' desc']);
      sql += ` order by ${first}${dir}, t.id${pick(r, ['', ' desc'])} limit ${int(r, 1, 30)}`;
      if (chance(r, 0.3)) sql += ` offset ${int(r, 0, 10)}`;
    } else if (k < 0.7) {
      sql += ` order by ${pick(r, ['t.timestamp desc', 't.project', ...(proj[0] === 'm.request' ? [] : ['1', '1 desc'])])}`;
    }
    return sql;
  }

  /** Group keys for edge aggregates: [select expression with alias, alias, plain expression]. */
  groupKeys(unnested: boolean): GroupKey[] {
    const r = this.r;
    const unit = pick(r, ['hour', 'minute', 'day', 'HOUR']);
    const pool = [
      { sel: 't.project', alias: 'project', expr: 't.project' },
      { sel: `timestamp_trunc(t.timestamp, ${unit}) as bucket`, alias: 'bucket', expr: `timestamp_trunc(t.timestamp, ${unit})` },
      { sel: `timestamp_trunc(t.timestamp, ${unit}) as timestamp`, alias: 'timestamp', expr: `timestamp_trunc(t.timestamp, ${unit})` },
      { sel: `datetime(timestamp_trunc(t.timestamp, hour), 'UTC') as hour_dt`, alias: 'hour_dt', expr: `datetime(timestamp_trunc(t.timestamp, hour), 'UTC')` },
    ];
    if (unnested) {
      pool.push(
        { sel: 'r.method', alias: 'method', expr: 'r.method' },
        { sel: 'r.path', alias: 'path', expr: 'r.path' },
        { sel: 's.status_code', alias: 'status_code', expr: 's.status_code' },
        { sel: 'case when s.status_code >= 500 then \'5xx\' when s.status_code >= 400 then \'4xx\' else \'other\' end as class', alias: 'class', expr: 'case when s.status_code >= 500 then \'5xx\' when s.status_code >= 400 then \'4xx\' else \'other\' end' },
        { sel: 'lower(r.method) as lm', alias: 'lm', expr: 'lower(r.method)' },
      );
    }
    const n = int(r, 1, 2);
    const out: GroupKey[] = [];
    for (let tries = 0; out.length < n && tries < 20; tries++) {
      const k = pick(r, pool);
      if (!out.some((o) => o.alias === k.alias || o.expr === k.expr)) out.push({ ...k, explicit: / as /.test(k.sel) });
    }
    return out;
  }

  aggregates(unnested: boolean, n: number): { sel: string; alias: string }[] {
    const r = this.r;
    const pool = [
      { sel: 'count(*) as n', alias: 'n' },
      { sel: 'count(t.event_message) as msgs', alias: 'msgs' },
      { sel: 'count(distinct t.project) as projects', alias: 'projects' },
      { sel: 'max(t.timestamp) as last_ts', alias: 'last_ts' },
      { sel: 'min(t.timestamp) as first_ts', alias: 'first_ts' },
      { sel: 'countif(t.event_message like \'%error%\') as errs', alias: 'errs' },
      { sel: 'min(t.id) as min_id', alias: 'min_id' },
      { sel: 'max(datetime(t.timestamp, \'UTC\')) as last_dt', alias: 'last_dt' },
    ];
    if (unnested) {
      pool.push(
        { sel: 'countif(s.status_code >= 500) as errors', alias: 'errors' },
        { sel: 'count(r.search) as searches', alias: 'searches' },
        { sel: 'count(distinct r.path) as paths', alias: 'paths' },
        { sel: 'sum(s.origin_time) as total_ms', alias: 'total_ms' },
        { sel: 'min(s.origin_time) as fastest', alias: 'fastest' },
        { sel: 'max(s.origin_time) as slowest', alias: 'slowest' },
        { sel: 'avg(s.origin_time) as mean_ms', alias: 'mean_ms' },
        { sel: 'min(r.path) as first_path', alias: 'first_path' },
        { sel: 'sum(if(s.status_code = 200, 1, 0)) as oks', alias: 'oks' },
        { sel: 'countif(r.path like \'/rest%\') as rest', alias: 'rest' },
        { sel: 'sum(case when s.status_code >= 400 then 1 else 0 end) as bad', alias: 'bad' },
        { sel: 'max(s.status_code) - min(s.status_code) as spread', alias: 'spread' },
      );
    }
    const out: { sel: string; alias: string }[] = [];
    for (let tries = 0; out.length < n && tries < 30; tries++) {
      const a = pick(r, pool);
      if (!out.some((o) => o.alias === a.alias)) out.push(a);
    }
    return out;
  }

  /** GROUP BY query over edge; ORDER BY covers every group key when LIMIT is present. */
  edgeAggregate(): string {
    const r = this.r;
    const { from, unnested } = this.edgeFrom();
    const keys = this.groupKeys(unnested);
    const aggs = this.aggregates(unnested, int(r, 1, 3));
    const global = chance(r, 0.12);
    const items = global ? aggs.map((a) => a.sel) : [...keys.map((k) => k.sel), ...aggs.map((a) => a.sel)];
    if (chance(r, 0.1)) items.push('count(*)'); // anonymous column
    let sql = `select ${items.join(', ')} ${from}`;
    if (chance(r, 0.7)) sql += ` where ${this.condition(() => this.edgeAtom(unnested))}`;
    if (global) return sql;
    // A select alias may name a group (and win over a same-named column); path names are not aliases.
    const by = keys.map((k, i) => pick(r, [k.explicit ? k.alias : k.expr, k.expr, String(i + 1)]));
    sql += ` group by ${by.join(', ')}`;
    if (chance(r, 0.2)) sql += ` having count(*) ${pick(r, ['>', '>=', '<'])} ${int(r, 1, 4)}`;
    const k = r();
    if (k < 0.5) {
      const order: string[] = [];
      if (chance(r, 0.5)) order.push(`${aggs[0]!.alias} desc`);
      for (const key of keys) order.push(`${pick(r, [key.explicit ? key.alias : key.expr, String(keys.indexOf(key) + 1)])}${pick(r, ['', ' desc'])}`);
      sql += ` order by ${order.join(', ')}`;
      if (chance(r, 0.6)) sql += ` limit ${int(r, 1, 8)}`;
    } else if (k < 0.7) {
      sql += ` order by ${aggs[0]!.alias}${pick(r, ['', ' desc'])}`;
    }
    return sql;
  }

  postgresQuery(): string {
    const r = this.r;
    const from = pick(r, [
      'from `postgres.logs` p cross join unnest(p.metadata) as m cross join unnest(m.parsed) as parsed',
      'from `postgres.logs` p left join unnest(p.metadata) as m on true left join unnest(m.parsed) as parsed on true',
    ]);
    const atom = (): string => pick(r, [
      () => `parsed.error_severity in ('ERROR', 'FATAL', 'PANIC')`,
      () => `parsed.error_severity = '${pick(r, SEVERITIES)}'`,
      () => `parsed.user_name is ${pick(r, ['', 'not '])}null`,
      () => `p.project = '${this.project()}'`,
      () => `p.timestamp >= ${this.timeLiteral()}`,
      () => `regexp_contains(p.event_message, '(?i)error')`,
      () => `m.host = 'db-1'`,
    ])();
    const where = chance(r, 0.8) ? ` where ${this.condition(atom)}` : '';
    if (chance(r, 0.5)) {
      const key = pick(r, ['parsed.error_severity', 'parsed.user_name', 'p.project', 'm.host']);
      return `select ${key}, count(*) as n, max(p.timestamp) as last_seen, countif(parsed.error_severity = 'ERROR') as errors ${from}${where} group by ${pick(r, [key, '1'])} order by n desc, ${pick(r, [key, '1'])}${chance(r, 0.5) ? ` limit ${int(r, 1, 5)}` : ''}`;
    }
    const proj = pick(r, ['p.id, p.timestamp, parsed.error_severity, parsed.user_name', 'p.id, p.event_message, m.host', 'p.id, coalesce(parsed.user_name, \'?\') as who, p.project']);
    return `select ${proj} ${from}${where} order by p.timestamp desc, p.id limit ${int(r, 1, 25)}`;
  }

  functionsQuery(): string {
    const r = this.r;
    // `metadata` as an alias hides the column of the same name (SPEC §7).
    const shadow = chance(r, 0.5);
    const m = shadow ? 'metadata' : 'fm';
    const from = shadow
      ? `from \`function-runtime-events\` as f cross join unnest(metadata) as metadata`
      : `from \`function-runtime-events\` f left join unnest(f.metadata) as fm on true`;
    const atom = (): string => pick(r, [
      () => `${m}.level = '${pick(r, LEVELS)}'`,
      () => `${m}.level = @level`,
      () => `${m}.project_ref = '${this.project()}'`,
      () => `${m}.project_ref is null`,
      () => `${m}.function_id in ('fn-a', 'fn-c')`,
      () => `f.timestamp < timestamp_sub(current_timestamp(), interval ${int(r, 30, 240)} minute)`,
      () => `f.event_message like '%${pick(r, ['boot', 'o', 'error'])}%'`,
    ])();
    const where = chance(r, 0.8) ? ` where ${this.condition(atom)}` : '';
    if (chance(r, 0.5)) {
      return `select ${m}.function_id, ${m}.level, count(*) as n ${from}${where} group by 1, 2 order by 1, 2`;
    }
    return `select id, f.timestamp, ${m}.level, ${m}.project_ref ${from}${where} order by timestamp desc, id limit ${int(r, 1, 20)}`;
  }

  cteQuery(): string {
    const r = this.r;
    const name = pick(r, ['base', 'Base', 'edge_rows']);
    const ref = chance(r, 0.5) ? name.toLowerCase() : name.toUpperCase();
    const { from, unnested } = this.edgeFrom();
    const cols = unnested ? 't.id, t.timestamp, t.project, r.path, s.status_code, s.origin_time' : 't.id, t.timestamp, t.project, t.event_message';
    const where = chance(r, 0.6) ? ` where ${this.condition(() => this.edgeAtom(unnested))}` : '';
    const cte = `with ${name} as (select ${cols} ${from}${where})`;
    const k = r();
    if (k < 0.3) {
      return `${cte} select project, count(*) as n, min(timestamp) as first_ts from ${ref} group by project order by project`;
    }
    if (k < 0.5) {
      const agg = unnested ? 'countif(status_code >= 400) as bad, sum(origin_time) as total' : 'count(event_message) as msgs';
      return `${cte}, counts as (select project, count(*) as n, ${agg} from ${ref} group by project) select * from counts where n ${pick(r, ['>', '>=', '<'])} ${int(r, 1, 10)}`;
    }
    if (k < 0.7) {
      return `${cte} select id, timestamp from ${ref} where timestamp > ${this.timeLiteral()} order by timestamp desc, id limit ${int(r, 1, 15)}`;
    }
    if (k < 0.85) {
      return `${cte}, buckets as (select timestamp_trunc(timestamp, hour) as hour, count(*) as n from ${ref} group by hour) select hour, n, datetime(hour, 'UTC') as label from buckets order by hour`;
    }
    return `${cte} select b.project, count(*) as n from ${ref} b where b.project is not null group by b.project having count(*) > 1 order by n desc, b.project`;
  }

  unionQuery(): string {
    const r = this.r;
    const edge = `select t.id, 'edge' as src, t.timestamp, t.project from \`edge.logs.prod\` t where ${this.condition(() => this.edgeAtom(false))}`;
    const pg = `select p.id, 'pg', p.timestamp, p.project from \`postgres.logs\` p where p.project ${pick(r, ['is not null', `= '${this.project()}'`, 'is null'])}`;
    const fn = `select f.id, 'fn', f.timestamp, fm.project_ref from \`function-runtime-events\` f cross join unnest(f.metadata) fm`;
    const parts = [edge, pg, ...(chance(r, 0.5) ? [fn] : [])];
    const body = parts.join(' union all ');
    const k = r();
    if (k < 0.3) return `${body} order by timestamp desc, id limit ${int(r, 1, 20)}`;
    if (k < 0.6) return `select src, count(*) as n, max(timestamp) as last from (${body}) group by src order by src`;
    if (k < 0.8) return `with u as (${body}) select project, count(distinct src) as sources, count(*) as n from u group by project order by project`;
    return body;
  }

  subqueryQuery(): string {
    const r = this.r;
    const { from, unnested } = this.edgeFrom();
    const inner = `select t.id, t.project, t.timestamp${unnested ? ', s.status_code, r.path' : ''} ${from}${chance(r, 0.6) ? ` where ${this.condition(() => this.edgeAtom(unnested))}` : ''}`;
    const k = r();
    if (k < 0.35) return `select x.project, count(*) as n from (${inner}) as x group by x.project order by x.project`;
    if (k < 0.6) return `select * from (${inner}) where project ${pick(r, ['is not null', `= '${this.project()}'`])}`;
    if (k < 0.8) return `select id, timestamp from (${inner} order by t.timestamp desc, t.id limit ${int(r, 3, 20)}) order by id`;
    return `select q.project, q.n from (select t.project, count(*) as n from \`edge.logs.prod\` t group by t.project) q where q.n > ${int(r, 1, 30)} order by q.project`;
  }

  joinQuery(): string {
    const r = this.r;
    const k = r();
    if (k < 0.4) {
      return `select t.project, count(*) as n from \`edge.logs.prod\` t join \`postgres.logs\` p on t.project = p.project and p.timestamp > ${this.timeLiteral()} group by t.project order by t.project`;
    }
    if (k < 0.7) {
      return `select t.id, pc.n from \`edge.logs.prod\` t left join (select p.project, count(*) as n from \`postgres.logs\` p group by p.project) pc on pc.project = t.project where ${this.condition(() => this.edgeAtom(false))} order by t.id`;
    }
    if (k > 0.85) return this.usingJoinQuery();
    return `select f.id, fm.function_id, t.id as edge_id from \`function-runtime-events\` f cross join unnest(f.metadata) fm inner join \`edge.logs.prod\` t on t.project = fm.project_ref and t.timestamp = f.timestamp order by f.id, edge_id`;
  }

  /** JOIN USING with one or two columns, every join type, bare names and `*` (the merged columns come first). */
  usingJoinQuery(): string {
    const r = this.r;
    const type = pick(r, ['join', 'inner join', 'left join', 'right join', 'full join']);
    const two = chance(r, 0.6);
    const by = two ? 'project, h' : 'project';
    const e = `(select t.project, timestamp_trunc(t.timestamp, hour) as h, count(*) as n from \`edge.logs.prod\` t group by 1, 2)`;
    const p = `(select p.project, timestamp_trunc(p.timestamp, hour) as h, count(*) as m from \`postgres.logs\` p where p.timestamp > ${this.timeLiteral()} group by 1, 2)`;
    // With one USING column `*` would show h twice (a duplicate-name error in BigQuery too).
    if (two && chance(r, 0.5)) return `select * from ${e} ${type} ${p} using (${by}) order by 1, 2, 3, 4`;
    if (chance(r, 0.3)) {
      // A parenthesised join as the left or the right side of another.
      const c = `(select c.project, count(*) as k from \`postgres.logs\` c group by 1) as c`;
      const inner = `(${e} as e ${type} ${p} as p using (${by}))`;
      const from = chance(r, 0.5) ? `${inner} left join ${c} using (project)` : `${c} right join ${inner} on c.project = e.project`;
      return `select e.project as ep, p.project as pp, n, m, k from ${from} order by 1, 2, 3, 4, 5`;
    }
    return `select project, e.h as eh, p.h as ph, n, m from ${e} as e ${type} ${p} as p using (${by}) order by 1, 2, 3, 4, 5`;
  }

  miscQuery(): string {
    const r = this.r;
    return pick(r, [
      () => `select count(*) as n, count(distinct t.project) as projects from \`edge.logs.prod\` t where t.timestamp >= '${iso(BASE_US + Math.floor(r() * SPAN_US))}'`,
      () => `select t.project, countif(r.path like '/rest%') as rest, countif(r.path like '/auth%') as auth from \`edge.logs.prod\` t cross join unnest(t.metadata) m cross join unnest(m.request) r group by 1 order by 1`,
      () => `select id, metadata from \`edge.logs.prod\` where project = '${this.project()}' order by timestamp, id limit ${int(r, 1, 10)}`,
      () => `select event_message, count(*) as n from \`postgres.logs\` group by event_message order by n desc, event_message`,
      () => `select timestamp_trunc(t.timestamp, hour) as timestamp, count(*) as n from \`edge.logs.prod\` t group by timestamp order by timestamp`,
      () => `select distinct t.project from \`edge.logs.prod\` t order by t.project`,
      () => `select t.id, case when t.project is null then 'none' when t.project = '${this.project()}' then 'mine' else 'other' end as who from \`edge.logs.prod\` t where t.timestamp < ${this.timeLiteral()} order by t.id`,
      () => `select @project as p, coalesce(@project, 'x') as q, current_timestamp() as now, timestamp_trunc(current_timestamp(), day) as today`,
      () => `select t.id, safe_cast(s.origin_time as string) as o, safe_cast(r.path as int64) as bad from \`edge.logs.prod\` t, unnest(t.metadata) m, unnest(m.response) s, unnest(m.request) r where t.project = @project order by t.id limit 5`,
      () => `select timestamp_diff(max(t.timestamp), min(t.timestamp), minute) as span_min, unix_micros(min(t.timestamp)) as first_us from \`edge.logs.prod\` t`,
      () => `select t.project, m.response from \`edge.logs.prod\` t cross join unnest(t.metadata) m where t.id = (select min(x.id) from \`edge.logs.prod\` x)`,
    ])();
  }

  /** Deeper records, arrays of scalars, top-level records, subqueries in WHERE, set/order corners. */
  extraQuery(): string {
    const r = this.r;
    const edgeChain = 'from `edge.logs.prod` t cross join unnest(t.metadata) as m cross join unnest(m.request) as r';
    return pick(r, [
      () => `select t.id, h.user_agent, h.x_real_ip ${edgeChain} cross join unnest(r.headers) as h where ${this.condition(() => pick(r, ['h.x_real_ip is null', `h.user_agent = '${pick(r, ['curl/8', 'node'])}'`, `t.project = '${this.project()}'`, "starts_with(h.user_agent, 'Moz')"]))} order by t.id`,
      () => `select h.user_agent, count(*) as n, count(h.x_real_ip) as ips, count(distinct h.x_real_ip) as distinct_ips ${edgeChain} left join unnest(r.headers) as h on true group by h.user_agent order by h.user_agent`,
      () => `select t.id, tag from \`edge.logs.prod\` t cross join unnest(t.metadata) m cross join unnest(m.tags) as tag where tag ${pick(r, ["!= 'api'", "like '%r%'", "in ('cdn', 'slow')"])} order by t.id, tag`,
      () => `select tag, count(*) as n from \`edge.logs.prod\` t cross join unnest(t.metadata) m left join unnest(m.tags) as tag on true group by tag order by n desc, tag`,
      () => `select t.id, array_length(m.tags) as ntags, m.tags from \`edge.logs.prod\` t cross join unnest(t.metadata) m where t.project = '${this.project()}' order by t.id`,
      () => `select t.id, tag, i from \`edge.logs.prod\` t cross join unnest(t.metadata) m cross join unnest(m.tags) as tag with offset as i order by t.id, i`,
      () => `select p.id, c.region, c.size from \`postgres.logs\` p cross join unnest(p.cluster) as c where c.size ${pick(r, ['>', '<=', '='])} ${int(r, 1, 3)} order by p.id`,
      () => `select c.region, count(*) as n, sum(c.size) as total from \`postgres.logs\` p left join unnest(p.cluster) as c on true group by 1 order by 1`,
      () => `select p.id, p.cluster from \`postgres.logs\` p where p.project = '${this.project()}' order by p.timestamp, p.id limit ${int(r, 1, 10)}`,
      () => `select * from \`postgres.logs\` p where p.project = '${this.project()}' and p.timestamp < ${this.timeLiteral()}`,
      () => `select id, message from \`edge.logs.prod\` where message is not null order by id`,
      () => `select count(*) as n, countif(event_message is null) as no_msg from \`edge.logs.prod\``,
      () => `select t.id from \`edge.logs.prod\` t where t.project in (select p.project from \`postgres.logs\` p where p.timestamp > ${this.timeLiteral()}) and t.timestamp < ${this.timeLiteral()} order by t.id`,
      () => `select t.id, (select count(*) from \`postgres.logs\` p where p.project = @project) as pg_rows from \`edge.logs.prod\` t where t.timestamp > ${this.timeLiteral()} order by t.id`,
      () => `select t.project, exists(select 1 from \`function-runtime-events\` f cross join unnest(f.metadata) fm where fm.project_ref = '${this.project()}' and fm.level = 'error') as has_errors from \`edge.logs.prod\` t group by t.project order by t.project`,
      () => `select t.id from \`edge.logs.prod\` t cross join unnest(t.metadata) m cross join unnest(m.response) s where s.status_code ${pick(r, ['in (200, null)', 'not in (200, null)', 'not between 300 and 499', 'between 500 and 400'])} order by t.id`,
      () => `select t.id, r.path from ${edgeChain.slice(5)} where r.path ${pick(r, ['>', '<', '>='])} '${pick(r, ['/r', '/auth', '/s'])}' and ${pick(r, ['true', 'not false', 'null is null'])} order by length(r.path), t.id`,
      () => `select t.id, unix_micros(t.timestamp) - unix_micros(timestamp_trunc(t.timestamp, hour)) as into_hour, timestamp_diff(current_timestamp(), t.timestamp, second) as age_s from \`edge.logs.prod\` t where ${this.timeLiteral()} < t.timestamp order by into_hour desc, t.id limit ${int(r, 1, 12)}`,
      () => `select t.project, safe_divide(countif(s.status_code >= 400), count(*)) as error_rate, sum(s.origin_time) / count(s.origin_time) as mean ${edgeChain.replace('as r', 'as r cross join unnest(m.response) as s')} group by t.project having max(t.timestamp) > ${this.timeLiteral()} order by t.project`,
      () => `select * from (with recent as (select t.id, t.project from \`edge.logs.prod\` t where t.timestamp > ${this.timeLiteral()}) select project, count(*) as n from recent group by project) order by project`,
      () => `select t.id, case s.status_code when 200 then 'ok' when null then 'never' else if(s.status_code is null, 'none', 'other') end as k, coalesce(cast(s.status_code as string), r.method, 'x') as c ${edgeChain} left join unnest(m.response) as s on true order by t.id`,
      () => `select t.id, lower(@project) as lp, t.project = @project as mine, concat(t.id, ':', ifnull(t.project, '-')) as tag from \`edge.logs.prod\` t order by t.timestamp, t.id limit ${int(r, 1, 30)} offset ${int(r, 0, 30)}`,
      () => `select x.id, x.ts from (select t.id, t.timestamp as ts from \`edge.logs.prod\` t union all select f.id, f.timestamp from \`function-runtime-events\` f) x where x.ts between ${this.timeLiteral()} and timestamp_add(${this.timeLiteral()}, interval ${int(r, 5, 90)} minute) order by 2 desc, 1`,
      () => `select t.id, safe_cast(r.search as int64) as s1, safe_cast(concat('1', ifnull(r.search, '')) as int64) as s2, safe_cast('2025-01-15' as timestamp) as d, cast(t.project is null as string) as nop ${edgeChain} order by t.id limit ${int(r, 5, 40)}`,
      () => `select t.id from \`edge.logs.prod\` t, \`postgres.logs\` p where t.id = 'e-0' or (p.project = t.project and p.timestamp = t.timestamp) order by t.id`,
    ])();
  }

  next(): CorpusQuery {
    const r = this.r;
    const table: [number, string, () => string][] = [
      [25, 'edge_select', () => this.edgeSelect()],
      [25, 'edge_aggregate', () => this.edgeAggregate()],
      [8, 'postgres', () => this.postgresQuery()],
      [8, 'functions', () => this.functionsQuery()],
      [12, 'cte', () => this.cteQuery()],
      [8, 'union', () => this.unionQuery()],
      [8, 'subquery', () => this.subqueryQuery()],
      [3, 'join', () => this.joinQuery()],
      [5, 'misc', () => this.miscQuery()],
      [14, 'extra', () => this.extraQuery()],
    ];
    const total = table.reduce((s, t) => s + t[0], 0);
    let x = r() * total;
    for (const [w, template, gen] of table) {
      if ((x -= w) < 0) return { sql: gen(), template };
    }
    return { sql: this.edgeSelect(), template: 'edge_select' };
  }
}

/** `count` distinct random queries for a data set (seeded). */
export function randomQueries(seed: number, set: EventSet, count: number): CorpusQuery[] {
  const gen = new QueryGen(rng(seed * 7919 + 17), set.projects, set.events.map((e) => e.us));
  const seen = new Set<string>();
  const out: CorpusQuery[] = [];
  for (let tries = 0; out.length < count && tries < count * 20; tries++) {
    const q = gen.next();
    if (seen.has(q.sql)) continue;
    seen.add(q.sql);
    out.push(q);
  }
  return out;
}
