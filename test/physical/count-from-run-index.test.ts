// CountFromRunIndex: COUNT(*) with no GROUP BY over a (project, time range) scan is counted from the
// segments' run index. The store's count equals the rows its scan returns, and the query's answer equals
// the general aggregation's, for project filters, bounds on segment edges, open + sealed segments, rows
// hidden below the watermark and a sequence floor.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countFromRunIndex } from '../../src/exec/physical/rules/count-from-run-index.ts';
import { SourceStore } from '../../src/store/source-store.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { sourceByNameOrId } from '../../src/store/sources.ts';
import { DEFAULT_HOT_PATHS } from '../../src/store/hot-paths.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';
import { querySqlJson } from '../../src/endpoints/query-sql.ts';
import type { ScanSpec, StoreConfig } from '../../src/store/types.ts';
import { find, logical, physicalText } from './helpers.ts';

const BASE = 1_736_000_000_000_000;
const SEC = 1_000_000;
const edge = sourceByNameOrId('edge.logs.prod')!;
const HOT = DEFAULT_HOT_PATHS['edge.logs.prod']!.map((p) => [...p]);

const eventArb = fc.record({ t: fc.integer({ min: 0, max: 200 }), p: fc.constantFrom('a', 'b', 'c', null) });
type Ev = { t: number; p: string | null };

function toEvent(s: Ev, i: number): Record<string, unknown> {
  const e: Record<string, unknown> = { id: `r${i}`, timestamp: BASE + s.t * SEC, event_message: `m${i}`, metadata: { request: { path: '/x', url: 'https://h/x', method: 'GET' } } };
  if (s.p !== null) e.project = s.p;
  return e;
}

/** Ingests in batches (seals every segmentRows rows, any arrival order), compresses some, evicts below `cut`. */
function fill<T extends { ingest(e: unknown[], now: number): unknown }>(s: T, evs: Ev[], batch: number, compressAt: number): void {
  for (let i = 0, k = 0; i < evs.length; i += batch, k++) {
    s.ingest(evs.slice(i, i + batch).map((e, j) => toEvent(e, i + j)), BASE + 1000 * SEC);
    if (k === compressAt) compressPendingNow();
  }
}

function scanned(s: SourceStore, spec: ScanSpec): number {
  let n = 0;
  for (const b of s.scan(spec)) n += b.n;
  return n;
}

describe('CountFromRunIndex', () => {
  it('fires for COUNT(*)s with no GROUP BY over a scan through plain projections, not otherwise', () => {
    const rule = (sql: string) => countFromRunIndex(find(logical(sql), 'aggregate'));
    expect(rule("select count(*) as n from `edge.logs.prod` where project = 'alpha'")).not.toBeNull();
    expect(rule('select count(*) as n, count(*) as m from (select id, timestamp from `edge.logs.prod` order by timestamp desc)')).not.toBeNull();
    expect(rule("select count(id) as n from `edge.logs.prod` where project = 'alpha'")).toBeNull();
    expect(rule('select count(distinct id) as n from `edge.logs.prod`')).toBeNull();
    expect(rule("select count(*) as n from `edge.logs.prod` where event_message like '%x%'")).toBeNull();
    expect(rule('select project, count(*) as n from `edge.logs.prod` group by project')).toBeNull();
    expect(rule("select count(*) as n from (select concat(id, 'x') as y from `edge.logs.prod`)")).toBeNull();
  });

  it('names itself in the physical plan', () => {
    expect(physicalText("select count(*) as n from `edge.logs.prod` where project = 'alpha'")).toMatch(/CountRows aggs=\[COUNT\(\*\)\] over Scan edge\.logs\.prod project="alpha" order=any {2}\[CountFromRunIndex\]/);
  });

  it('the store counts what its scan returns (projects, bounds on segment edges, open + sealed, watermark, sequence floor)', () => {
    fc.assert(fc.property(
      fc.array(eventArb, { minLength: 1, maxLength: 120 }), fc.integer({ min: 2, max: 24 }), fc.integer({ min: 1, max: 40 }),
      fc.boolean(), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 120 }),
      fc.array(fc.record({ p: fc.constantFrom(undefined, 'a', 'b', null, 'zz'), lo: fc.option(fc.nat()), hi: fc.option(fc.nat()), loIn: fc.boolean(), hiIn: fc.boolean(), after: fc.option(fc.nat()) }), { minLength: 1, maxLength: 12 }),
      (evs, segmentRows, batch, compress, compressAt, cut, specs) => {
        const config: StoreConfig = { retentionUs: 1e15, maxRows: 1e9, maxBytes: 1e12, segmentRows, maxEventDepth: 16, maxStringBytes: 1 << 20, compress };
        const s = new SourceStore(edge, config, HOT);
        fill(s, evs, batch, compressAt);
        s.evict(BASE + cut * SEC + config.retentionUs);
        // Bounds at stored timestamps (every segment's first and last row among them) and one past them.
        const stamps = [...new Set(evs.map((e) => BASE + e.t * SEC))].flatMap((t) => [t, t + 1]);
        for (const x of specs) {
          const spec: ScanSpec = { order: 'any' };
          if (x.p !== undefined) spec.project = x.p;
          if (x.lo !== null) { spec.minTs = stamps[x.lo % stamps.length]; spec.minInclusive = x.loIn; }
          if (x.hi !== null) { spec.maxTs = stamps[x.hi % stamps.length]; spec.maxInclusive = x.hiIn; }
          if (x.after !== null) spec.afterSeq = x.after % (evs.length + 1);
          expect(s.countRows(spec), JSON.stringify(spec)).toBe(scanned(s, spec));
        }
      },
    ), { numRuns: 60, seed: 15 });
  });

  it('answers what the general aggregation answers, through SQL, before and after eviction', () => {
    fc.assert(fc.property(
      fc.array(eventArb, { minLength: 1, maxLength: 100 }), fc.integer({ min: 2, max: 16 }), fc.integer({ min: 1, max: 30 }),
      fc.constantFrom('a', 'b', 'zz'), fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 120 }),
      (evs, segmentRows, batch, project, lo, hi, cut) => {
        const store = new Store({ ...defaultStoreConfig({}), retentionUs: 1e15, segmentRows, compress: true, blockBytes: 200 });
        fill(store.source('edge.logs.prod')!, evs, batch, 1);
        const iso = (t: number): string => new Date((BASE + t * SEC) / 1000).toISOString();
        const where = `where project = '${project}' and timestamp > timestamp '${iso(lo)}' and timestamp <= timestamp '${iso(hi)}'`;
        const fast = `select count(*) as n from (select timestamp, id from \`edge.logs.prod\` ${where} order by timestamp desc)`;
        const general = `select countif(true) as n from (select timestamp, id from \`edge.logs.prod\` ${where} order by timestamp desc)`;
        const opts = { params: new Map<string, string | null>(), nowUs: BASE + 1000 * SEC };
        expect(querySqlJson(store, fast, opts)).toBe(querySqlJson(store, general, opts));
        store.source('edge.logs.prod')!.evict(BASE + cut * SEC + 1e15);
        expect(querySqlJson(store, fast, opts)).toBe(querySqlJson(store, general, opts));
        const all = 'select count(*) as n from `edge.logs.prod`';
        expect(querySqlJson(store, all, opts)).toBe(querySqlJson(store, 'select countif(true) as n from `edge.logs.prod`', opts));
      },
    ), { numRuns: 40, seed: 16 });
  });
});
