// HotBucketAggregate over the store's column runs: COUNT/COUNTIF per TIMESTAMP_TRUNC bucket, read from
// each segment's own columns, answers byte for byte what it answered over the scan's batches (groups in
// the same order, also without ORDER BY) and what the general aggregation (SUM(IF(...))) answers, for
// url and project filters, window starts on segment edges, open + sealed (some compressed) segments,
// rows hidden below the watermark and events whose request is not one exact record.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';
import { planSqlOnCatalog, querySqlJson } from '../../src/endpoints/query-sql.ts';
import { catalogFromStore } from '../../src/endpoints/store-catalog.ts';
import { runToJson } from '../../src/exec/run.ts';
import type { Catalog, SourceHandle } from '../../src/plan/catalog.ts';
import { physicalText } from './helpers.ts';

const BASE = Date.UTC(2025, 0, 10) * 1000;
const MIN = 60_000_000;
const CHAIN = 'from `edge.logs.prod` t left join unnest(t.metadata) as m on true left join unnest(m.request) as r on true';

const shapes: ((p: string, path: string) => unknown)[] = [
  (p, path) => ({ request: { url: `https://${p}.example.com${path}`, path } }),
  (p, path) => ({ request: { url: `https://${p}.example.com${path}`, path } }),
  (p, path) => ({ request: [{ url: `https://${p}.example.com${path}`, path }, { url: `https://${p}.example.com/auth/v1`, path: '/auth/v1' }] }),
  () => ({ request: [] }),
  (p) => ({ request: { url: `https://${p}.example.com/x`, path: ['/rest/odd'] } }),
];

const FILTERS = ["regexp_contains(r.url, 'a\\\\.')", "regexp_contains(r.url, 'b|c')", "t.project = 'b'", 'true'];

const evArb = fc.record({ t: fc.integer({ min: 0, max: 4000 }), p: fc.constantFrom('a', 'b', 'c'), path: fc.constantFrom('/rest/v1/t', '/storage/v1/o', '/auth/v1/u', '/realtime/v1', '/fn'), shape: fc.nat({ max: 4 }) });

/** The store's catalog without column runs: the hot path reads the scan's batches, as it did before runs. */
function batchesOnly(store: Store): Catalog {
  const c = catalogFromStore(store);
  const strip = (h: SourceHandle | undefined): SourceHandle | undefined => {
    if (h === undefined) return undefined;
    const { scanRuns: _runs, ...rest } = h;
    return rest;
  };
  return { source: (n) => strip(c.source(n)), sourceNames: () => c.sourceNames() };
}

/** Without ORDER BY the groups come out in the order the scan first shows them: that order must hold too. */
function query(select: (leaf: string) => string, where: string, unit: string, ordered = true): string {
  return `select timestamp_trunc(t.timestamp, ${unit}) as b, ${select('r.path')} ${CHAIN} where ${where} group by b${ordered ? ' order by b' : ''}`;
}
const fast = (leaf: string): string => `count(*) as n, countif(regexp_contains(${leaf}, '/rest')) as rest, countif(regexp_contains(${leaf}, '/auth')) as auth`;
const general = (leaf: string): string => `count(*) as n, sum(if(regexp_contains(${leaf}, '/rest'), 1, 0)) as rest, sum(if(regexp_contains(${leaf}, '/auth'), 1, 0)) as auth`;

describe('HotBucketAggregate over column runs', () => {
  it('is the plan of the fast query and not of the general one', () => {
    for (const f of FILTERS) expect(physicalText(query(fast, `${f} and t.timestamp >= timestamp_micros(${BASE})`, 'hour'))).toContain('[HotBucketAggregate]');
    expect(physicalText(query(general, "regexp_contains(r.url, 'a')", 'hour'))).not.toContain('HotBucketAggregate');
  });

  it('keeps the batches\' group order across thousands of rows (runs end where batches end)', () => {
    const store = new Store({ ...defaultStoreConfig({}), retentionUs: 1e15, segmentRows: 700, compress: true });
    const src = store.source('edge.logs.prod')!;
    const paths = ['/rest/v1/t', '/auth/v1/u', '/fn'];
    for (let i = 0; i < 5000; i += 500) {
      // Out of time order, every 7th event inexact: its minute must come out where the batches put it.
      src.ingest(Array.from({ length: 500 }, (_, j) => {
        const k = i + j;
        return { id: `e${k}`, timestamp: BASE + ((k * 7919) % 5000) * MIN, project: 'a', event_message: 'm', metadata: shapes[k % 7 === 0 ? 2 : 0]!('a', paths[k % 3]!) };
      }), BASE + 6000 * MIN);
    }
    const opts = { params: new Map<string, string | null>(), nowUs: BASE + 6000 * MIN };
    for (const unit of ['minute', 'hour']) {
      const sql = query(fast, `regexp_contains(r.url, 'a') and t.timestamp >= timestamp_micros(${BASE + 300 * MIN})`, unit, false);
      const want = runToJson(planSqlOnCatalog(batchesOnly(store), sql, opts).physical, { maxRows: null }).body.toString('utf8');
      expect(querySqlJson(store, sql, opts)).toBe(want);
    }
  });

  it('answers what the general aggregation answers', () => {
    fc.assert(fc.property(
      fc.array(evArb, { minLength: 1, maxLength: 150 }), fc.integer({ min: 2, max: 32 }), fc.integer({ min: 1, max: 40 }), fc.nat(), fc.integer({ min: 0, max: 3000 }),
      fc.constantFrom('minute', 'hour', 'day'), fc.constantFrom(...FILTERS), fc.boolean(),
      (evs, segmentRows, batch, startPick, cut, unit, filter, ordered) => {
        const store = new Store({ ...defaultStoreConfig({}), retentionUs: 1e15, segmentRows, compress: true, blockBytes: 300 });
        const src = store.source('edge.logs.prod')!;
        for (let i = 0; i < evs.length; i += batch) {
          src.ingest(evs.slice(i, i + batch).map((e, j) => ({ id: `e${i + j}`, timestamp: BASE + e.t * MIN, project: e.p, event_message: 'm', metadata: shapes[e.shape]!(e.p, e.path) })), BASE + 5000 * MIN);
          if (i === 0) compressPendingNow();
        }
        // A window start at a stored timestamp (segment edges are among them).
        const start = BASE + evs[startPick % evs.length]!.t * MIN;
        const where = `${filter} and t.timestamp >= timestamp_micros(${start})`;
        const opts = { params: new Map<string, string | null>(), nowUs: BASE + 5000 * MIN };
        const check = (): void => {
          const got = querySqlJson(store, query(fast, where, unit, ordered), opts);
          const plan = planSqlOnCatalog(batchesOnly(store), query(fast, where, unit, ordered), opts).physical;
          expect(got).toBe(runToJson(plan, { maxRows: null }).body.toString('utf8'));
          // The general aggregate emits generic rows in scan order, the hot path after each batch's
          // exact rows: their groups agree in order only under ORDER BY.
          if (ordered) expect(got).toBe(querySqlJson(store, query(general, where, unit, ordered), opts));
        };
        check();
        src.evict(BASE + cut * MIN + 1e15);
        check();
      },
    ), { numRuns: 40, seed: 17 });
  });
});
