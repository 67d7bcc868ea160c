// Cooperative slicing must not change any answer: every query of the differential corpus and of the
// golden fixtures gives byte-identical bodies run in one go and run in the smallest slices (yielding to the
// event loop at every clock check), and a query reads one instant of the store while ingest goes on between its slices.

import { describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { planSql } from '../../src/endpoints/query-sql.ts';
import { runToJson, runToJsonSliced } from '../../src/exec/run.ts';
import { ExecContext, DEFAULT_BUDGET } from '../../src/exec/context.ts';
import { isRingqlError } from '../../src/core/errors.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';
import { NOW_US, corpusParams, randomEvents, randomQueries, shuffledBatches } from '../reference/corpus.ts';
import { fixtureStore, FIXTURE_NOW } from '../helpers/fixture-store.ts';
import { goldenInputs, parseSlt } from '../golden/golden-files.ts';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plan } from '../../src/plan/bound.ts';

type Outcome = string;

function syncRun(plan: () => Plan): Outcome {
  try {
    return runToJson(plan(), { maxRows: 1000 }).body.toString('utf8');
  } catch (e) {
    if (isRingqlError(e)) return `error ${e.code}`;
    throw e;
  }
}

async function slicedRun(plan: () => Plan): Promise<{ out: Outcome; slices: number }> {
  const ctx = new ExecContext(DEFAULT_BUDGET);
  try {
    const r = await runToJsonSliced(plan(), { maxRows: 1000 }, ctx, 0);
    return { out: r.body.toString('utf8'), slices: ctx.meter.slices };
  } catch (e) {
    if (isRingqlError(e)) return { out: `error ${e.code}`, slices: ctx.meter.slices };
    throw e;
  }
}

describe('sliced execution equals one-go execution', () => {
  for (const seed of [101, 303]) {
    it(`differential corpus, seed ${seed}`, async () => {
      const set = randomEvents(seed, seed === 303 ? 5 : 1);
      const store = new Store({ ...defaultStoreConfig({}), segmentRows: 16 });
      for (const { source, batch } of shuffledBatches(set.events, seed)) store.source(source)!.ingest(batch, NOW_US);
      const params = corpusParams(set);
      let multiSlice = 0;
      for (const { sql } of randomQueries(seed, set, 150)) {
        const plan = (): Plan => planSql(store, sql, { params, nowUs: NOW_US });
        let want: Outcome;
        try {
          want = syncRun(plan);
        } catch (e) {
          want = `error ${isRingqlError(e) ? e.code : String(e)}`;
        }
        let got: { out: Outcome; slices: number };
        try {
          got = await slicedRun(plan);
        } catch (e) {
          got = { out: `error ${isRingqlError(e) ? e.code : String(e)}`, slices: 0 };
        }
        expect(got.out, sql).toBe(want);
        if (got.slices > 1) multiSlice++;
      }
      // The comparison means something only if queries really were cut into slices.
      expect(multiSlice).toBeGreaterThan(50);
    }, 120_000);
  }

  it('golden fixture queries', async () => {
    const store = fixtureStore();
    const dir = fileURLToPath(new URL('../golden/rows/', import.meta.url));
    let n = 0;
    for (const file of goldenInputs(dir, '.slt')) {
      for (const c of parseSlt(readFileSync(file, 'utf8'))) {
        const plan = (): Plan => planSql(store, c.sql, { params: c.params, nowUs: FIXTURE_NOW });
        let want: Outcome;
        try { want = syncRun(plan); } catch (e) { want = `error ${isRingqlError(e) ? e.code : String(e)}`; }
        let got: Outcome;
        try { got = (await slicedRun(plan)).out; } catch (e) { got = `error ${isRingqlError(e) ? e.code : String(e)}`; }
        expect(got, c.sql).toBe(want);
        n++;
      }
    }
    expect(n).toBeGreaterThan(40);
  });
});

describe('a sliced query reads one instant of the store', () => {
  it('events ingested between its slices are not seen by any of its scans', async () => {
    const store = new Store({ ...defaultStoreConfig({}), segmentRows: 64 });
    const src = store.source('edge.logs.prod')!;
    const ev = (i: number) => ({ id: `e${i}`, timestamp: NOW_US - (i + 1) * 1_000_000, project: 'p', event_message: `m${i}` });
    src.ingest(Array.from({ length: 3000 }, (_, i) => ev(i)), NOW_US);
    // Two scans of the same source (one in a subquery, one in the main pipeline) and a join of two more.
    const sql = 'select (select count(*) from `edge.logs.prod`) as sub, count(*) as main, ' +
      '(select count(*) from `edge.logs.prod` a join `edge.logs.prod` b on a.id = b.id) as joined from `edge.logs.prod`';
    const plan = planSql(store, sql, { nowUs: NOW_US });
    let next = 3000;
    let ingests = 0;
    let running = true;
    const pump = (): void => {
      if (!running) return;
      src.ingest(Array.from({ length: 50 }, () => ev(next++)), NOW_US);
      ingests++;
      setImmediate(pump);
    };
    setImmediate(pump);
    const ctx = new ExecContext(DEFAULT_BUDGET);
    const r = await runToJsonSliced(plan, { maxRows: null }, ctx, 0);
    running = false;
    expect(ingests).toBeGreaterThan(0);
    expect(ctx.meter.slices).toBeGreaterThan(1);
    expect(JSON.parse(r.body.toString())).toEqual({ result: [{ sub: 3000, main: 3000, joined: 3000 }] });
  });
});

describe('a sliced query keeps the row bytes it spliced', () => {
  it('seal slabs freed by compression between its slices are not rewritten under its body', async () => {
    const store = new Store({ ...defaultStoreConfig({}), segmentRows: 512 });
    const src = store.source('edge.logs.prod')!;
    const ev = (i: number) => ({ id: `e${i}`, timestamp: NOW_US - (i + 1) * 1_000_000, project: 'p', event_message: `message ${i} `.repeat(8) });
    // Sealed but not compressed: the rows are views of seal slabs when the query splices them.
    // One seal: its slab is the pool's to reuse once its blocks are compressed.
    src.ingest(Array.from({ length: 512 }, (_, i) => ev(i)), NOW_US);
    // The stored columns in stored order: each row is spliced from its stored bytes (a view, until the body is built).
    const plan = planSql(store, 'select id, timestamp, event_message, metadata from `edge.logs.prod`', { nowUs: NOW_US });
    const want = runToJson(plan, { maxRows: null }).body.toString('utf8');
    let next = 512, pumps = 0, running = true;
    // Between slices: compress every sealed block (its slab is then free to reuse) and seal new rows.
    const pump = (): void => {
      if (!running) return;
      compressPendingNow();
      src.ingest(Array.from({ length: 512 }, () => ev(next++)), NOW_US);
      pumps++;
      setImmediate(pump);
    };
    setImmediate(pump);
    const ctx = new ExecContext(DEFAULT_BUDGET);
    const r = await runToJsonSliced(plan, { maxRows: null }, ctx, 0);
    running = false;
    expect(pumps).toBeGreaterThan(2);
    expect(ctx.meter.slices).toBeGreaterThan(2);
    expect(r.body.toString('utf8')).toBe(want);
    // Once no query is paused, the slabs are reused again.
    compressPendingNow();
    src.ingest(Array.from({ length: 512 }, () => ev(next++)), NOW_US);
    compressPendingNow();
    src.ingest(Array.from({ length: 512 }, () => ev(next++)), NOW_US);
    const slabs = (src as unknown as { rows: { slabs: { reused: number } } }).rows.slabs;
    expect(slabs.reused).toBeGreaterThan(0);
  });
});
