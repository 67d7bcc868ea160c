// The reference's own LQL test strings (test/lql/corpus/reference-lql.json, collected from Logflare's
// test/logflare/lql*/): ringql's SQL for each is a golden (UPDATE_GOLDEN=1 rewrites it), each string's
// verdict is checked against what ringql does, and a subset runs over stored rows.

import { describe, expect, it } from 'vitest';
import { expectedFor } from '../golden/golden-files.ts';
import { CORPUS_DIR, corpus, ringqlAnswer } from './corpus-harness.ts';
import { lqlRows } from './store-rows.ts';

const entries = corpus();

describe('reference LQL corpus', () => {
  it('ringql SQL (or error code) for every string matches the golden', () => {
    const actual = entries.map((e) => `${JSON.stringify(e.lql)}\t${ringqlAnswer(e.lql)}`).join('\n') + '\n';
    expect(actual).toBe(expectedFor(`${CORPUS_DIR}expected.txt`, actual));
  });

  it('each verdict agrees with what ringql does', () => {
    for (const e of entries) {
      const rejected = ringqlAnswer(e.lql).startsWith('error ');
      const ctx = `${JSON.stringify(e.lql)} (${e.from}, reference ${e.reference}, verdict ${e.verdict})`;
      if (e.verdict === 'unsupported') expect(rejected, ctx).toBe(true);
      if (e.verdict === 'right') expect(rejected, ctx).toBe(e.reference === 'error');
      if (e.verdict === 'different') expect(rejected, ctx).toBe(false);
    }
  });

  it('tally: right / unsupported / different meaning (schema-dependent ones not counted)', () => {
    const count = (v: string): number => entries.filter((e) => e.verdict === v).length;
    // Written down in test/lql/corpus/README.md; update both together.
    expect({ total: entries.length, right: count('right'), unsupported: count('unsupported'), different: count('different'), schema: count('schema') })
      .toEqual({ total: 397, right: 357, unsupported: 0, different: 27, schema: 13 });
  });
});

// Rows: a representative subset over events in `edge.logs.prod` (clock 2025-01-15T12:00:00Z), the
// expected ids reasoned from the events below, newest first (charts: oldest bucket first).
const ts = (iso: string): number => Date.parse(iso) * 1000;
const EVENTS = [
  { id: 'a', timestamp: ts('2025-01-15T11:59:10Z'), event_message: 'user "admin" login', metadata: { status: 'error', latency: 600, tags: ['production'], level: 'error', user: { id: 123 } } },
  { id: 'b', timestamp: ts('2025-01-15T11:59:40Z'), event_message: 'warning: disk', metadata: { status: 'success', latency: 120, tags: ['staging'], level: 'warning' } },
  { id: 'c', timestamp: ts('2025-01-15T11:30:00Z'), event_message: 'my-string here', metadata: { status: 'error', latency: 50, tags: ['prod-eu'], level: 'debug' } },
  { id: 'd', timestamp: ts('2025-01-14T10:00:00Z'), event_message: 'another day', metadata: { latency: 300, level: 'critical' } },
];
const ids = (lql: string): string[] => lqlRows(lql, EVENTS).map((r) => r.id as string);

describe('reference LQL corpus: rows', () => {
  it('filters', () => {
    expect(ids('m.status:error m.latency:>500')).toEqual(['a']);
    expect(ids('m.status:success m.latency:>100 event_message:error')).toEqual([]);
    expect(ids('~"user \\"admin\\" login"')).toEqual(['a']);
    expect(ids('-m.status:error')).toEqual(['b', 'd']); // d has no status: kept, as the reference
    expect(ids('m.tags:@>production')).toEqual(['a']);
    expect(ids('m.tags:@>~prod')).toEqual(['a', 'c']); // EXISTS over UNNEST(tags): 'production', 'prod-eu'
    expect(ids('m.latency:100.0..500.0')).toEqual(['b', 'd']);
    expect(ids('metadata.level:debug..error')).toEqual(['b', 'a', 'c']);
    expect(ids('my-string')).toEqual(['c']);
  });

  it('time', () => {
    expect(ids('m.status:error t:today')).toEqual(['a', 'c']);
    expect(ids('t:yesterday')).toEqual(['d']);
    expect(ids('t:2025-01-15T11:{00..45}:00')).toEqual(['c']);
    expect(ids('t:>1736941200')).toEqual(['b', 'a']); // 1736941200 is 2025-01-15T11:40:00Z
  });

  it('charts and selects', () => {
    const rows = lqlRows('m.status:error c:avg(m.latency) c:group_by(t::minute)', EVENTS);
    expect(rows).toEqual([{ timestamp: ts('2025-01-15T11:30:00Z'), count: 50 }, { timestamp: ts('2025-01-15T11:59:00Z'), count: 600 }]);
    // d (the 14th) has no status: its day counts 0 distinct values.
    expect(lqlRows('c:countd(m.status) c:group_by(t::day)', EVENTS)).toEqual([{ timestamp: ts('2025-01-14T00:00:00Z'), count: 0 }, { timestamp: ts('2025-01-15T00:00:00Z'), count: 2 }]);
    expect(lqlRows('s:metadata.user.id@user_id m.status:error', EVENTS)).toEqual([{ user_id: 123 }, { user_id: null }]);
  });
});

// Rows for strings added from the reference's list tables, encoder round trips and docs.
const MORE = [
  { id: 'p', timestamp: ts('2025-01-15T10:10:00Z'), event_message: 'GET /a.png', metadata: { status: 'ok" m.level:"error', url: '/a.png' } },
  { id: 'q', timestamp: ts('2025-01-15T11:20:00Z'), event_message: 'GET /b.gif', metadata: { status: 'ok', url: '/b.gif' } },
  { id: 'r', timestamp: ts('2025-01-15T11:40:00Z'), event_message: 'GET /c.jpeg', metadata: { url: '/c.jpeg' } },
];
const moreIds = (lql: string): string[] => lqlRows(lql, MORE).map((r) => r.id as string);

describe('reference LQL corpus: rows of the added strings', () => {
  it('a quoted value with escaped quotes is one value (lql_test.exs:261)', () => {
    expect(moreIds('m.status:"ok\\" m.level:\\"error"')).toEqual(['p']);
  });
  it('regex alternation over a field, docs example', () => {
    expect(moreIds('m.url:~"jpg$|jpeg$|png$"')).toEqual(['r', 'p']);
  });
  it('c:group_by alone charts count(*) per unit (lql_test.exs:394)', () => {
    expect(lqlRows('c:group_by(t::hour)', MORE)).toEqual([{ timestamp: ts('2025-01-15T10:00:00Z'), count: 1 }, { timestamp: ts('2025-01-15T11:00:00Z'), count: 2 }]);
  });
  it('a negated NULL keeps the rows that have the field (search_operations_test.exs:830)', () => {
    expect(moreIds('-m.status:NULL')).toEqual(['q', 'p']);
  });
});
