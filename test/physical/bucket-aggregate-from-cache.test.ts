// BucketAggregateFromCache: applied only when the run goes through the bucket cache, to the first
// TIMESTAMP_TRUNC(timestamp, MINUTE|HOUR|DAY) aggregation of COUNT/COUNTIF over row-wise input.

import { describe, expect, it } from 'vitest';
import { bucketAggregateFromCache } from '../../src/exec/physical/rules/bucket-aggregate-from-cache.ts';
import { EDGE_CHAIN, find, logical, physicalText } from './helpers.ts';

const agg = (sql: string) => find(logical(sql), 'aggregate');

describe('BucketAggregateFromCache', () => {
  it('keeps COUNT/COUNTIF per MINUTE, HOUR or DAY of the scan timestamp', () => {
    const s = bucketAggregateFromCache(agg(`select timestamp_trunc(t.timestamp, minute) as b, countif(r.path = '/x') as n ${EDGE_CHAIN} group by b`))!;
    expect(s.unit).toBe('MINUTE');
    expect(s.scan.source.def.name).toBe('edge.logs.prod');
  });
  it('leaves SUM (an all-NULL SUM is NULL, not 0), SECOND, and a key that is not the scan timestamp', () => {
    expect(bucketAggregateFromCache(agg('select timestamp_trunc(t.timestamp, hour) as b, sum(1) as s from `edge.logs.prod` t group by b'))).toBeNull();
    expect(bucketAggregateFromCache(agg('select timestamp_trunc(t.timestamp, second) as b, count(*) as s from `edge.logs.prod` t group by b'))).toBeNull();
    expect(bucketAggregateFromCache(agg("select timestamp_trunc(timestamp('2025-01-01'), hour) as b, count(*) as s from `edge.logs.prod` t group by b"))).toBeNull();
  });
  it('fires only when asked for, and then names itself', () => {
    const sql = 'select timestamp_trunc(t.timestamp, hour) as b, count(*) as n from `edge.logs.prod` t group by b';
    expect(physicalText(sql)).not.toMatch(/BucketAggregateFromCache/);
    expect(physicalText(sql, { bucketCache: true })).toMatch(/BucketAggregateFromCache unit=HOUR aggs=\[COUNT\(\*\)\] over Scan edge\.logs\.prod AS t order=any {2}\[BucketAggregateFromCache\]/);
  });
});
