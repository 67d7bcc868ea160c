// BucketCountFromTimestamps: COUNT(*) per TIMESTAMP_TRUNC(timestamp, fixed unit) straight over a scan is
// counted from the scan's timestamps. When it fires and when not, and its answers (groups in the same
// order, run in one go or in the smallest slices) equal the general aggregation's over many zstd blocks.

import { describe, expect, it } from 'vitest';
import { find, logical, physicalText } from './helpers.ts';
import { bucketCountFromTimestamps } from '../../src/exec/physical/rules/bucket-count-from-timestamps.ts';
import { catalogFromStore } from '../../src/endpoints/store-catalog.ts';
import { planSqlOnCatalog } from '../../src/endpoints/query-sql.ts';
import { explainPhysical } from '../../src/exec/physical/explain-physical.ts';
import { runToJson, runToJsonSliced } from '../../src/exec/run.ts';
import { ExecContext, DEFAULT_BUDGET } from '../../src/exec/context.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';
import { generateEvents } from '../../src/gen/generate.ts';
import { FIXTURE_NOW } from '../helpers/fixture-store.ts';

const EDGE = '`edge.logs.prod`';
const CTE = `with c as (select timestamp, id, event_message, metadata from ${EDGE} where project = 'p1' order by timestamp desc)`;

describe('BucketCountFromTimestamps', () => {
  const fires = (sql: string): boolean => bucketCountFromTimestamps(find(logical(sql), 'aggregate')) !== null;

  it('fires for COUNT(*)s per fixed-width bucket of the scan timestamp, through plain projections', () => {
    expect(fires(`${CTE} select timestamp_trunc(timestamp, minute) as m, count(*) as n from c group by m order by m`)).toBe(true);
    expect(fires(`select timestamp_trunc(t.timestamp, hour) as h, count(*) as a, count(*) as b from ${EDGE} t group by h`)).toBe(true);
    expect(physicalText(`${CTE} select timestamp_trunc(timestamp, minute) as m, count(*) as n from c group by m`))
      .toMatch(/BucketCount unit=MINUTE aggs=\[COUNT\(\*\)\] over Scan edge\.logs\.prod project="p1" order=desc {2}\[BucketCountFromTimestamps\]/);
  });

  it('does not fire for other counters, units, keys, or rows filtered, reordered or multiplied on the way', () => {
    expect(fires(`${CTE} select timestamp_trunc(timestamp, minute) as m, count(id) as n from c group by m`)).toBe(false);
    expect(fires(`${CTE} select timestamp_trunc(timestamp, minute) as m, count(distinct id) as n from c group by m`)).toBe(false);
    expect(fires(`${CTE} select timestamp_trunc(timestamp, month) as m, count(*) as n from c group by m`)).toBe(false);
    expect(fires(`${CTE} select timestamp_trunc(timestamp, minute, 'America/New_York') as m, count(*) as n from c group by m`)).toBe(false);
    expect(fires(`${CTE} select timestamp_trunc(timestamp, minute) as m, id, count(*) as n from c group by m, id`)).toBe(false);
    expect(fires(`${CTE} select timestamp_trunc(timestamp, minute) as m, count(*) as n from c where event_message is not null group by m`)).toBe(false);
    expect(fires(`select timestamp_trunc(ts, minute) as m, count(*) as n from (select timestamp as ts from ${EDGE} order by id) group by m`)).toBe(false);
    expect(fires(`select timestamp_trunc(timestamp, minute) as m, count(*) as n from ${EDGE} t cross join unnest(t.metadata) as x group by m`)).toBe(false);
  });
});

/** A store of generated edge events over a few projects, shuffled, in many small zstd blocks, some rows still open. */
function storeOfBlocks(n: number): Store {
  const store = new Store({ ...defaultStoreConfig({}), segmentRows: 128, blockBytes: 4096 });
  const events = [...generateEvents({ events: n, projects: 3, days: 2, seed: 11, endUs: FIXTURE_NOW, sources: ['edge.logs.prod'] })].map((g) => g.event);
  // Arrival out of time order (a fixed shuffle), so sealed segments overlap in time.
  for (let i = events.length - 1, r = 7; i > 0; i--) {
    r = (r * 1103515245 + 12345) % 2147483648;
    const j = r % (i + 1);
    [events[i], events[j]] = [events[j]!, events[i]!];
  }
  for (let i = 0; i < events.length; i += 250) store.source('edge.logs.prod')!.ingest(events.slice(i, i + 250), FIXTURE_NOW);
  compressPendingNow();
  return store;
}

describe('BucketCountFromTimestamps answers as the general aggregation does', () => {
  const catalog = catalogFromStore(storeOfBlocks(3000));
  const plan = (sql: string) => planSqlOnCatalog(catalog, sql, { nowUs: FIXTURE_NOW }).physical;
  const physicalTextOf = (sql: string): string => explainPhysical(plan(sql));
  const body = (sql: string): string => runToJson(plan(sql), { maxRows: null }).body.toString('utf8');
  // COUNT(1) counts the same rows but is not COUNT(*): the general HashAggregate answers it.
  const cases = [
    `select timestamp_trunc(timestamp, minute) as m, count(*) as n from ${EDGE} group by m`,
    `select timestamp_trunc(timestamp, second) as m, count(*) as n from ${EDGE} where project = 'obucnehlnotmrrwioihh' group by m`,
    `select timestamp_trunc(t.timestamp, hour) as h, count(*) as a, count(*) as b from ${EDGE} t group by h order by a desc, h`,
    `with c as (select timestamp, id from ${EDGE} order by timestamp desc) select timestamp_trunc(timestamp, day) as d, count(*) as n from c group by d`,
    `with c as (select timestamp, id from ${EDGE} where project = 'default' order by timestamp asc) select timestamp_trunc(timestamp, minute) as d, count(*) as n from c group by d`,
    `with c as (select timestamp, id from ${EDGE} order by timestamp desc) select timestamp_trunc(timestamp, hour) as d, count(*) as n from c group by d limit 7`,
    `with c as (select timestamp, id from ${EDGE} order by timestamp desc) select timestamp_trunc(timestamp, minute) as d, count(*) as n from c group by d`,
    `select timestamp_trunc(timestamp, minute) as m, count(*) as n from ${EDGE} where timestamp > timestamp_sub(timestamp '${new Date(FIXTURE_NOW / 1000).toISOString()}', interval 3 hour) group by m order by m`,
    `select timestamp_trunc(timestamp, minute) as m, count(*) as n from ${EDGE} where timestamp < timestamp '2000-01-01' group by m`,
  ];

  it.each(cases)('%s', async (sql) => {
    const general = sql.replace(/count\(\*\)/g, 'count(1)');
    expect(physicalTextOf(sql)).toContain('[BucketCountFromTimestamps]');
    expect(physicalTextOf(general)).not.toContain('BucketCount');
    const want = body(general);
    // Every case but the one over an empty range counts some rows.
    expect(want === '{"result":[]}').toBe(sql.includes("'2000-01-01'"));
    expect(body(sql)).toBe(want);
    const ctx = new ExecContext(DEFAULT_BUDGET);
    const sliced = await runToJsonSliced(plan(sql), { maxRows: null }, ctx, 0);
    expect(sliced.body.toString('utf8')).toBe(want);
  });
});
