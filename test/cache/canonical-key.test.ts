// The bucket cache keys a state by the canonical plan (not EXPLAIN text): binding the same query again
// (other column ids) gives the same key; any change to what is counted gives another.

import { describe, expect, it } from 'vitest';
import { canonicalPlanKey } from '../../src/plan/canonical.ts';
import { planSql } from '../../src/endpoints/query-sql.ts';
import { fixtureStore, FIXTURE_NOW } from '../helpers/fixture-store.ts';

const store = fixtureStore();
const key = (sql: string) => canonicalPlanKey(planSql(store, sql, { nowUs: FIXTURE_NOW }));
const Q = (countif: string) => `select timestamp_trunc(t.timestamp, hour) as b, countif(${countif}) as n from \`edge.logs.prod\` t left join unnest(t.metadata) as m on true left join unnest(m.request) as r on true group by b`;

describe('canonical plan key', () => {
  it('is the same for the same query bound twice, whatever ids the binder handed out', () => {
    const a = key(Q("r.path = '/x'"));
    key('select 1 as one, 2 as two, 3 as three'); // a bind in between moves the id counter on
    expect(key(Q("r.path = '/x'"))).toBe(a);
  });
  it('differs when what is counted differs: the constant, the operator, or the field', () => {
    const a = key(Q("r.path = '/x'"));
    expect(key(Q("r.path = '/y'"))).not.toBe(a);
    expect(key(Q("r.url = '/x'"))).not.toBe(a);
    expect(key(Q("r.path >= '/x'"))).not.toBe(a);
  });
  it('carries no ingest sequence: the bucket cache passes it to the scan as run context', () => {
    expect(key(Q("r.path = '/x'"))).not.toMatch(/after_?seq/i);
  });
});
