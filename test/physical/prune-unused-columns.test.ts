// PruneUnusedColumns: which projected columns the rule drops and which it must keep (DISTINCT, set
// operations, expressions that can fail, parameter constants, correlated reads), and answers with
// the rule equal byte for byte to answers without it over a generated store of many zstd blocks.

import { describe, expect, it } from 'vitest';
import { logical, physicalText } from './helpers.ts';
import { Binder } from '../../src/plan/binder.ts';
import { parseSavedQuery } from '../../src/endpoints/prepare.ts';
import { catalogFromStore } from '../../src/endpoints/store-catalog.ts';
import { planSqlOnCatalog } from '../../src/endpoints/query-sql.ts';
import { optimize } from '../../src/plan/rules.ts';
import { runToJson } from '../../src/exec/run.ts';
import { children } from '../../src/plan/explain.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';
import { generateEvents } from '../../src/gen/generate.ts';
import type { Plan } from '../../src/plan/bound.ts';
import { FIXTURE_NOW } from '../helpers/fixture-store.ts';

const EDGE = '`edge.logs.prod`';

/** Output names of every projection, top first (a depth-first walk). */
function projections(p: Plan, out: string[][] = []): string[][] {
  if (p.k === 'project') out.push(p.cols.map((c) => c.name));
  for (const c of children(p)) projections(c, out);
  return out;
}

describe('PruneUnusedColumns on parsed SQL', () => {
  it('narrows a CTE to the one column a per-minute chart reads, and names itself in the physical plan', () => {
    const sql = `with c as (select timestamp, id, event_message, metadata from ${EDGE} order by timestamp desc)
      select timestamp_trunc(timestamp, minute) as minute, count(*) as n from c group by minute order by minute`;
    expect(projections(logical(sql))).toEqual([['minute', 'n'], ['timestamp']]);
    // With a counter that reads a column the aggregation stays general, and the narrowed projection shows.
    expect(physicalText(sql.replace('count(*)', 'count(id)'))).toMatch(/HashAggregate .*\n +Project timestamp, id {2}\[PruneUnusedColumns\]/);
  });

  it('keeps one plain column when nothing above reads any (COUNT(*))', () => {
    expect(projections(logical(`select count(*) as n from (select event_message, id from ${EDGE})`))).toEqual([['n'], ['event_message']]);
  });

  it('follows filters, ORDER BY of a column not selected, LIMIT and GROUP BY ordinals', () => {
    // (ORDER BY msg stays a sort; ORDER BY ts would be taken from the scan's order and read nothing.)
    expect(projections(logical(`select id from (select id, timestamp as ts, event_message as msg, metadata from ${EDGE}) where ts is not null order by msg limit 3`)).at(-1))
      .toEqual(['id', 'ts', 'msg']);
    expect(projections(logical(`select x, count(*) as n from (select substr(id, 1, 2) as x, metadata, event_message from ${EDGE}) group by 1`)))
      .toEqual([['x', 'n'], ['x']]);
    expect(projections(logical(`select id from (select id, event_message from ${EDGE} limit 5)`))).toEqual([['id'], ['id']]);
  });

  it('keeps what UNNEST and a correlated subquery read', () => {
    expect(projections(logical(`select r.path from (select id, metadata, event_message from ${EDGE}) t cross join unnest(t.metadata) as m cross join unnest(m.request) as r`)))
      .toEqual([['path'], ['metadata']]);
    expect(projections(logical(`select t.id from (select id, event_message as msg, metadata from ${EDGE}) t where exists (select 1 from unnest([1]) as one where t.msg is not null)`))[1])
      .toEqual(['id', 'msg']);
  });

  it('never prunes under DISTINCT, set operations or SELECT *', () => {
    expect(projections(logical(`select count(*) as n from (select distinct id, event_message from ${EDGE})`))).toEqual([['n'], ['id', 'event_message']]);
    expect(projections(logical(`select id from (select id, event_message from ${EDGE} union all select id, event_message from ${EDGE})`)))
      .toEqual([['id'], ['id', 'event_message'], ['id', 'event_message']]);
    expect(projections(logical(`select * from (select id, event_message from ${EDGE})`))).toEqual([['id', 'event_message'], ['id', 'event_message']]);
  });

  it('keeps expressions that can fail at run time, and the query still fails as BigQuery does', () => {
    const sql = `select id from (select id, cast(event_message as int64) as bad from ${EDGE})`;
    expect(projections(logical(sql))).toEqual([['id'], ['id', 'bad']]);
    expect(() => runToJson(planSqlOnCatalog(fixtureCatalog(), sql, { nowUs: FIXTURE_NOW }).physical, { maxRows: null }))
      .toThrow(/int64|INT64/i);
    // A field read or a literal cannot fail: dropped.
    expect(projections(logical(`select id from (select id, t.metadata as md, 'k' as k, struct(t.id as x).x as y from ${EDGE} t)`))).toEqual([['id'], ['id']]);
  });

  it('keeps a constant folded from a parameter (a prepared plan recomputes it for other values)', () => {
    const bind = (trace: boolean): Plan => optimize(new Binder({ catalog: fixtureCatalog(), params: new Map([['p', '12']]), declaredParams: null, nowUs: FIXTURE_NOW, traceParams: trace })
      .bindTop(parseSavedQuery(`select id from (select id, cast(@p as int64) as q from ${EDGE})`)));
    expect(projections(bind(true))).toEqual([['id'], ['id', 'q']]);
    // Planned for these values only (not kept as a template): nothing to recompute, dropped.
    expect(projections(bind(false))).toEqual([['id'], ['id']]);
  });
});

let fixture: ReturnType<typeof catalogFromStore> | null = null;
function fixtureCatalog(): ReturnType<typeof catalogFromStore> {
  return (fixture ??= catalogFromStore(storeOfBlocks(200)));
}

/** A store of `n` generated edge events over a few projects, sealed into many small zstd blocks. */
function storeOfBlocks(n: number): Store {
  const store = new Store({ ...defaultStoreConfig({}), segmentRows: 64, blockBytes: 2048 });
  const events = [...generateEvents({ events: n, projects: 4, days: 1, seed: 3, endUs: FIXTURE_NOW, sources: ['edge.logs.prod'] })].map((g) => g.event);
  for (let i = 0; i < events.length; i += 100) store.source('edge.logs.prod')!.ingest(events.slice(i, i + 100), FIXTURE_NOW);
  compressPendingNow();
  return store;
}

describe('PruneUnusedColumns keeps every answer', () => {
  const catalog = catalogFromStore(storeOfBlocks(1500));
  const answer = (sql: string, prune: boolean): string => {
    const bound = new Binder({ catalog, params: new Map(), declaredParams: null, nowUs: FIXTURE_NOW }).bindTop(parseSavedQuery(sql));
    return runToJson(optimize(bound, { pruneColumns: prune }), { maxRows: null }).body.toString('utf8');
  };
  const queries = [
    `with c as (select timestamp, id, event_message, metadata from ${EDGE} order by timestamp desc) select timestamp_trunc(timestamp, minute) as minute, count(*) as n from c group by minute order by minute`,
    `select id, ts from (select id, timestamp as ts, event_message, metadata from ${EDGE} where project is not null) order by ts desc limit 40`,
    `select r.method, count(*) as n from (select id, metadata, event_message from ${EDGE}) t cross join unnest(t.metadata) as m cross join unnest(m.request) as r group by 1 order by 1`,
    `select count(*) as n, min(ts) as first from (select timestamp as ts, id, metadata as md, 'k' as k from ${EDGE})`,
    `select msg, count(*) as n from (select distinct event_message as msg, id from ${EDGE}) group by msg order by n desc, msg limit 5`,
    `select a.id from (select id, timestamp, metadata from ${EDGE}) a join (select id, event_message from ${EDGE}) b using (id) order by a.id limit 20`,
  ];

  it.each(queries)('%s', (sql) => {
    const pruned = answer(sql, true);
    expect(pruned.length).toBeGreaterThan(20);
    expect(pruned).toBe(answer(sql, false));
  });
});
