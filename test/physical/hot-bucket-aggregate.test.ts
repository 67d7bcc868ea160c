// HotBucketAggregate: a fixed-width TIMESTAMP_TRUNC key with COUNT/COUNTIF of single hot leaves over a hot
// chain runs vectorised; other aggregates, units of variable width or non-leaf arguments do not.

import { describe, expect, it } from 'vitest';
import { hotBucketAggregate } from '../../src/exec/physical/rules/hot-bucket-aggregate.ts';
import { columnUses } from '../../src/exec/column-uses.ts';
import { EDGE_CHAIN, find, logical, physicalText } from './helpers.ts';

const choose = (select: string, unit = 'hour') => {
  const p = logical(`select timestamp_trunc(t.timestamp, ${unit}) as b, ${select} ${EDGE_CHAIN} group by b`);
  return hotBucketAggregate(find(p, 'aggregate'), columnUses(p));
};

describe('HotBucketAggregate', () => {
  it('fires for COUNT(*) and COUNTIF over one leaf, per fixed unit', () => {
    const c = choose("count(*) as n, countif(r.path = '/rest') as rest")!;
    expect(c.unit).toBe('HOUR');
    expect(c.counters.map((x) => [x.kind, x.leaf >= 0])).toEqual([['count', false], ['countif', true]]);
    expect(choose("countif(r.path = '/x') as n", 'minute')!.unit).toBe('MINUTE');
    // No leaf read at all: nothing to read from the dictionaries, the generic aggregate runs.
    expect(choose('count(*) as n')).toBeNull();
  });
  it('does not fire for SUM, for WEEK or MONTH (not fixed in width), or a COUNTIF over two leaves', () => {
    expect(choose('sum(1) as s')).toBeNull();
    expect(choose("countif(r.path = '/x') as n", 'month')).toBeNull();
    expect(choose('countif(r.path = r.url) as x')).toBeNull();
  });
  it('names itself in the physical plan', () => {
    expect(physicalText(`select timestamp_trunc(t.timestamp, day) as b, count(*) as n ${EDGE_CHAIN} where r.path = '/x' group by b`)).toMatch(/HotBucketAggregate unit=DAY counters=\[COUNT\(\*\)\] {2}\[HotBucketAggregate\]/);
  });
});
