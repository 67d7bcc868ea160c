// HotBucketAggregate over the store's column runs: COUNT/COUNTIF per TIMESTAMP_TRUNC bucket, read from
// each segment's own columns, answers what the general aggregation (SUM(IF(...)), no hot path) answers,
// for url filters, project filters, window starts on segment edges, open + sealed (some compressed)
// segments, rows hidden below the watermark and events whose request is not one exact record.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';
import { querySqlJson } from '../../src/endpoints/query-sql.ts';
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

function query(select: (leaf: string) => string, where: string, unit: string): string {
  return `select timestamp_trunc(t.timestamp, ${unit}) as b, ${select('r.path')} ${CHAIN} where ${where} group by b order by b`;
}
const fast = (leaf: string): string => `count(*) as n, countif(regexp_contains(${leaf}, '/rest')) as rest, countif(regexp_contains(${leaf}, '/auth')) as auth`;
const general = (leaf: string): string => `count(*) as n, sum(if(regexp_contains(${leaf}, '/rest'), 1, 0)) as rest, sum(if(regexp_contains(${leaf}, '/auth'), 1, 0)) as auth`;

describe('HotBucketAggregate over column runs', () => {
  it('is the plan of the fast query and not of the general one', () => {
    for (const f of FILTERS) expect(physicalText(query(fast, `${f} and t.timestamp >= timestamp_micros(${BASE})`, 'hour'))).toContain('[HotBucketAggregate]');
    expect(physicalText(query(general, "regexp_contains(r.url, 'a')", 'hour'))).not.toContain('HotBucketAggregate');
  });

  it('answers what the general aggregation answers', () => {
    fc.assert(fc.property(
      fc.array(evArb, { minLength: 1, maxLength: 150 }), fc.integer({ min: 2, max: 32 }), fc.integer({ min: 1, max: 40 }), fc.nat(), fc.integer({ min: 0, max: 3000 }),
      fc.constantFrom('minute', 'hour', 'day'), fc.constantFrom(...FILTERS),
      (evs, segmentRows, batch, startPick, cut, unit, filter) => {
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
        expect(querySqlJson(store, query(fast, where, unit), opts)).toBe(querySqlJson(store, query(general, where, unit), opts));
        src.evict(BASE + cut * MIN + 1e15);
        expect(querySqlJson(store, query(fast, where, unit), opts)).toBe(querySqlJson(store, query(general, where, unit), opts));
      },
    ), { numRuns: 40, seed: 17 });
  });
});
