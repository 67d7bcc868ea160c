// Hot columns standing in for `LEFT JOIN UNNEST(metadata) m LEFT JOIN UNNEST(m.request) r ... r.url`:
// results must equal a store without hot columns, for exact rows and for every odd shape that forces
// the row back to JSON (several request records, non-scalar leaves, missing records).

import { afterEach, describe, expect, it, vi } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { querySql } from '../../src/endpoints/query-sql.ts';
import { ScanRow } from '../../src/exec/scan-row.ts';

const NOW = Date.UTC(2025, 0, 15, 12) * 1000;
const MIN = 60_000_000;

function events(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const shapes: ((i: number) => unknown)[] = [
    (i) => ({ request: { url: `https://p${i % 3}.api.example.com/rest/v1/t`, path: '/rest/v1/t', method: i % 2 ? 'GET' : 'POST' } }),
    (i) => ({ request: { url: `https://p${i % 3}.api.example.com/storage/v1/o`, path: '/storage/v1/o' } }),
    () => ({ request: [{ url: 'https://p0.api.example.com/auth/v1/a', path: '/auth/v1/a' }, { url: 'https://p1.api.example.com/realtime/v1', path: '/realtime/v1' }] }),
    () => ({ request: { url: { nested: 'p0' }, path: ['/rest/x'] } }),
    () => ({ request: [] }),
    () => ({ other: 1 }),
    () => ({ request: 'plain text' }),
    () => ({ request: { path: '/rest/only-path' } }),
    () => ({ request: { url: 42, path: true } }),
  ];
  for (let i = 0; i < 180; i++) {
    const shape = shapes[i % shapes.length]!;
    out.push({ id: `e${i}`, timestamp: NOW - ((i * 7919) % 600) * MIN, project: `p${i % 3}`, event_message: 'm', metadata: shape(i) });
  }
  out.push({ id: 'nometa', timestamp: NOW - MIN, project: 'p0', event_message: 'no metadata' });
  return out;
}

function load(hot: boolean): Store {
  const store = hot ? new Store(defaultStoreConfig({})) : new Store(defaultStoreConfig({}), {});
  const src = store.source('edge.logs.prod')!;
  const evs = events();
  // Out of order, several batches.
  for (let i = 0; i < evs.length; i += 37) src.ingest(evs.slice(i, i + 37).reverse(), NOW);
  return store;
}

const QUERIES = [
  `select timestamp_trunc(t.timestamp, hour) as ts,
     countif(regexp_contains(r.path, '/rest')) as rest, countif(regexp_contains(r.path, '/storage')) as storage, count(*) as n
   from \`edge.logs.prod\` t left join unnest(t.metadata) m on true left join unnest(m.request) r on true
   where regexp_contains(r.url, 'p0') group by ts order by ts`,
  `select t.id, r.url, r.path from \`edge.logs.prod\` t left join unnest(t.metadata) as m left join unnest(m.request) as r order by t.id, r.url, r.path`,
  `select count(*) as n, countif(r.url is null) as no_url, countif(r.path is null) as no_path
   from \`edge.logs.prod\` t left join unnest(t.metadata) m left join unnest(m.request) r`,
  // Filters fused into the hot chain: one leaf (memoised per value), two leaves, a leaf and a scan column.
  `select t.id from \`edge.logs.prod\` t left join unnest(t.metadata) m left join unnest(m.request) r where r.url is null order by t.id`,
  `select t.id, r.path from \`edge.logs.prod\` t left join unnest(t.metadata) m left join unnest(m.request) r
   where r.path like '/rest%' or r.url like '%p1%' order by t.id, r.path`,
  `select t.id from \`edge.logs.prod\` t left join unnest(t.metadata) m left join unnest(m.request) r
   where starts_with(r.path, '/storage') and t.project = 'p1' order by t.id`,
  // CROSS JOIN drops rows without a record; mixed with LEFT; a dashboard list with a limit.
  `select t.id, r.url from \`edge.logs.prod\` t cross join unnest(t.metadata) m cross join unnest(m.request) r order by t.id, r.url`,
  `select t.id, r.method from \`edge.logs.prod\` t cross join unnest(t.metadata) m left join unnest(m.request) r order by t.id, r.method`,
  `select t.id, t.timestamp, r.method, r.path from \`edge.logs.prod\` t cross join unnest(t.metadata) m cross join unnest(m.request) r
   where r.path like '/rest%' order by t.timestamp desc, t.id limit 7`,
  // Vectorised time buckets: COUNT(*), COUNT(leaf), COUNTIF(leaf) with and without a fused filter.
  `select timestamp_trunc(t.timestamp, minute) as m, count(*) as n, count(r.url) as urls, countif(r.method = 'GET') as gets
   from \`edge.logs.prod\` t cross join unnest(t.metadata) m cross join unnest(m.request) r group by m order by m`,
  `select timestamp_trunc(t.timestamp, day) as d, countif(regexp_contains(r.path, '/storage')) as s, count(*) as n
   from \`edge.logs.prod\` t left join unnest(t.metadata) m left join unnest(m.request) r
   where regexp_contains(r.url, 'p1') group by 1 order by 1`,
  `select timestamp_trunc(t.timestamp, hour) as h, countif(r.path is null) as no_path
   from \`edge.logs.prod\` t left join unnest(t.metadata) m left join unnest(m.request) r group by h order by h`,
];

describe('hot unnest chain', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(QUERIES.map((q, i) => [i, q] as const))('query %i equals the store without hot columns', (_i, sql) => {
    const want = querySql(load(false), sql, { nowUs: NOW });
    const got = querySql(load(true), sql, { nowUs: NOW });
    expect(got).toEqual(want);
    expect(got.length).toBeGreaterThan(0);
  });

  it('keeps per-dictionary predicate answers apart across queries on one store', () => {
    const hot = load(true), cold = load(false);
    const q = (pattern: string, fn: string): string => `select timestamp_trunc(t.timestamp, hour) as h, countif(${fn}(r.path, '/rest')) as rest, count(*) as n
      from \`edge.logs.prod\` t left join unnest(t.metadata) m left join unnest(m.request) r
      where ${fn}(r.url, '${pattern}') group by h order by h`;
    // Same shape, different constants and functions, repeated: each must match the store without hot columns.
    for (const [pattern, fn] of [['p0', 'regexp_contains'], ['p1', 'regexp_contains'], ['p0', 'starts_with'], ['p0', 'regexp_contains'], ['https://p2', 'starts_with']] as const) {
      expect(querySql(hot, q(pattern, fn), { nowUs: NOW })).toEqual(querySql(cold, q(pattern, fn), { nowUs: NOW }));
    }
    // Ingest more (new dictionary values) and ask again.
    hot.source('edge.logs.prod')!.ingest([{ id: 'late', timestamp: NOW - 5 * MIN, project: 'p0', metadata: { request: { url: 'https://p0.api.example.com/rest/new', path: '/rest/new' } } }], NOW);
    cold.source('edge.logs.prod')!.ingest([{ id: 'late', timestamp: NOW - 5 * MIN, project: 'p0', metadata: { request: { url: 'https://p0.api.example.com/rest/new', path: '/rest/new' } } }], NOW);
    expect(querySql(hot, q('p0', 'regexp_contains'), { nowUs: NOW })).toEqual(querySql(cold, q('p0', 'regexp_contains'), { nowUs: NOW }));
  });

  it('parses JSON only for rows whose hot values are not exact', () => {
    const store = load(true);
    const base = vi.spyOn(ScanRow.prototype, 'base');
    querySql(store, QUERIES[2]!, { nowUs: NOW });
    // Inexact: shapes 2 (two request records), 3 (object/array leaves), 4 (no request record), 5 (no
    // request), 6 (request is text) → 5 × 20 rows, plus the event without metadata. Shape 8 (scalar leaves) is exact.
    expect(base).toHaveBeenCalledTimes(101);
  });
});
