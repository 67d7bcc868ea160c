// Differential test (ARCHITECTURE habit 4): random events ingested out of order into a real Store; random
// queries run by the engine and by the reference evaluator must agree. Env: RINGQL_DIFF_SEEDS=1,2,
// RINGQL_DIFF_QUERIES=n (per seed), RINGQL_DIFF_DUMP=file.ndjson (append every disagreement, for triage).

import { appendFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { querySql } from '../../src/endpoints/query-sql.ts';
import { parseQuery } from '../../src/sql/parse.ts';
import { isRingqlError } from '../../src/core/errors.ts';
import type { Value } from '../../src/core/values.ts';
import { evaluateDetailed, type Expected } from '../reference/evaluator.ts';
import { NOW_US, corpusParams, randomEvents, randomQueries, shuffledBatches, tablesOf } from '../reference/corpus.ts';

const SEEDS = (process.env.RINGQL_DIFF_SEEDS ?? '101,202,303,404,505,606,707,808').split(',').map(Number);
const QUERIES_PER_SEED = Number(process.env.RINGQL_DIFF_QUERIES ?? 250);
/** Every third seed gets 5× the events, so scans cross many sealed segments. */
const scaleOf = (seed: number): number => (SEEDS.indexOf(seed) % 3 === 2 ? 5 : 1);

type Row = Record<string, Value>;
type Outcome = { ok: true; rows: Row[] } | { ok: false; code: string; message: string };

/** Numbers equal within a small relative tolerance (AVG, `/`); everything else deeply equal. */
export function valuesEqual(a: Value, b: Value): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return true;
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => valuesEqual(x, b[i]!));
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a), kb = Object.keys(b);
    const ra = a as Record<string, Value>, rb = b as Record<string, Value>;
    return ka.length === kb.length && ka.every((k) => k in rb && valuesEqual(ra[k]!, rb[k]!));
  }
  return a === b;
}

/** Exact key of a row, used to match most rows fast before the tolerant pass. */
function rowKey(r: Row): string {
  return JSON.stringify(r, (_k, v: unknown) => (typeof v === 'number' && !Number.isInteger(v) ? `~${v.toPrecision(12)}` : v));
}

/** Is `got` a sub-multiset of `pool` (tolerant numbers)? Returns a description of the first misfit. */
function subMultiset(got: Row[], pool: Row[]): string | null {
  const byKey = new Map<string, number[]>();
  pool.forEach((r, i) => {
    const k = rowKey(r);
    const list = byKey.get(k);
    if (list) list.push(i);
    else byKey.set(k, [i]);
  });
  const used = new Set<number>();
  const left: Row[] = [];
  for (const g of got) {
    const list = byKey.get(rowKey(g));
    const i = list?.pop();
    if (i === undefined) left.push(g);
    else used.add(i);
  }
  for (const g of left) {
    const i = pool.findIndex((p, j) => !used.has(j) && valuesEqual(p, g));
    if (i < 0) return `unexpected row ${JSON.stringify(g)}`;
    used.add(i);
  }
  return null;
}

/**
 * null when the engine's rows are what the reference allows; else why not. `columnOrder` false
 * compares column names as a set: `SELECT *` over a source lists extra top-level keys in the order
 * the store first saw them, which depends on arrival order the reference cannot know.
 */
export function compareRows(expected: Expected, got: Row[], columnOrder = true): string | null {
  const want = expected.segments.reduce((s, x) => s + x.take, 0);
  if (got.length !== want) return `row count: expected ${want}, got ${got.length}`;
  for (const [i, r] of got.entries()) {
    const keys = Object.keys(r);
    const norm = (ks: string[]): string => (columnOrder ? ks : [...ks].sort()).join(',');
    if (norm(keys) !== norm(expected.columns)) return `row ${i} columns: expected [${expected.columns.join(', ')}], got [${keys.join(', ')}]`;
  }
  let at = 0;
  for (const seg of expected.segments) {
    const slice = got.slice(at, at + seg.take);
    const why = subMultiset(slice, seg.pool);
    if (why) return `${expected.ordered ? `rows ${at}..${at + seg.take - 1} (one ORDER BY tie group)` : 'rows (as a multiset)'}: ${why}`;
    at += seg.take;
  }
  return null;
}

function outcome(run: () => Row[]): Outcome {
  try {
    return { ok: true, rows: run() };
  } catch (e) {
    if (isRingqlError(e)) return { ok: false, code: e.code, message: e.message };
    return { ok: false, code: `<non-RingqlError ${(e as Error).name}>`, message: (e as Error).stack ?? String(e) };
  }
}

function show(o: Outcome | { ok: true; exp: Expected }): string {
  if ('exp' in o) return `${o.exp.rows.length} rows: ${JSON.stringify(o.exp.rows.slice(0, 5))}${o.exp.rows.length > 5 ? ' …' : ''}`;
  if (o.ok) return `${o.rows.length} rows: ${JSON.stringify(o.rows.slice(0, 5))}${o.rows.length > 5 ? ' …' : ''}`;
  return `error ${o.code}: ${o.message.split('\n').slice(0, 3).join(' | ')}`;
}

interface Disagreement {
  seed: number;
  template: string;
  sql: string;
  why: string;
  expected: string;
  actual: string;
}

/** Runs one seed: data, store, queries; returns the disagreements and how many queries ran. */
export function runSeed(seed: number, queries = QUERIES_PER_SEED): { checked: number; distinct: Set<string>; disagreements: Disagreement[]; bothFailed: Map<string, number> } {
  const set = randomEvents(seed, scaleOf(seed));
  const store = new Store({ ...defaultStoreConfig({}), segmentRows: 16 });
  for (const { source, batch } of shuffledBatches(set.events, seed)) store.source(source)!.ingest(batch, NOW_US);
  const tables = tablesOf(set.events);
  const params = corpusParams(set);
  const disagreements: Disagreement[] = [];
  const distinct = new Set<string>();
  const bothFailed = new Map<string, number>();
  let checked = 0;
  for (const { sql, template } of randomQueries(seed, set, queries)) {
    distinct.add(sql);
    checked++;
    let exp: { ok: true; exp: Expected } | Outcome;
    try {
      exp = { ok: true, exp: evaluateDetailed(parseQuery(sql), tables, { params, nowUs: NOW_US }) };
    } catch (e) {
      exp = isRingqlError(e) ? { ok: false, code: e.code, message: e.message } : { ok: false, code: `<reference ${(e as Error).name}>`, message: (e as Error).message };
    }
    const got = outcome(() => querySql(store, sql, { params, nowUs: NOW_US }));
    const report = (why: string): void => {
      disagreements.push({ seed, template, sql, why, expected: show(exp), actual: show(got) });
    };
    if (!exp.ok && exp.code.startsWith('<reference')) report(`reference evaluator failed: ${exp.message}`);
    else if ('exp' in exp) {
      if (!got.ok) report('engine raised an error, reference returned rows');
      else {
        const why = compareRows(exp.exp, got.rows, !/\bselect\s+(distinct\s+)?([\w`.]+\.)?\*/i.test(sql));
        if (why) report(why);
      }
    } else if (got.ok) report(`reference raised ${exp.code}, engine returned rows`);
    else if (exp.code !== got.code) report(`both failed, codes differ: reference ${exp.code}, engine ${got.code}`);
    else bothFailed.set(exp.code, (bothFailed.get(exp.code) ?? 0) + 1);
  }
  return { checked, distinct, disagreements, bothFailed };
}

function describeDisagreements(ds: Disagreement[]): string {
  return ds
    .slice(0, 15)
    .map((d) => `seed ${d.seed} [${d.template}] ${d.why}\n  SQL: ${d.sql}\n  expected: ${d.expected}\n  actual:   ${d.actual}`)
    .join('\n\n') + (ds.length > 15 ? `\n\n… and ${ds.length - 15} more` : '');
}

describe('engine agrees with the reference evaluator on random queries', () => {
  const distinct = new Set<string>();
  for (const seed of SEEDS) {
    it(`seed ${seed}`, () => {
      const r = runSeed(seed);
      const dump = process.env.RINGQL_DIFF_DUMP;
      if (dump) for (const d of r.disagreements) appendFileSync(dump, JSON.stringify(d) + '\n');
      for (const s of r.distinct) distinct.add(s);
      // Both failing is agreement, but a corpus where most queries fail tests nothing.
      const failed = [...r.bothFailed.values()].reduce((a, b) => a + b, 0);
      expect(failed, `queries both sides rejected: ${JSON.stringify([...r.bothFailed])}`).toBeLessThan(r.checked * 0.1);
      if (r.disagreements.length > 0) expect.fail(`${r.disagreements.length} of ${r.checked} queries disagree\n\n${describeDisagreements(r.disagreements)}`);
    }, 60_000);
  }
  it('covers at least 300 distinct queries', () => {
    if (SEEDS.length * QUERIES_PER_SEED < 300) return; // a narrowed local run
    expect(distinct.size).toBeGreaterThanOrEqual(300);
  });
});
