// Property tests of SourceStore: scans over out-of-order ingest equal a naive sorted filter
// (sealing and compaction included), and a batch with one bad event stores nothing.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SourceStore } from '../../src/store/source-store.ts';
import { sourceByNameOrId } from '../../src/store/sources.ts';
import { DEFAULT_HOT_PATHS, hotValueAt, type HotValue } from '../../src/store/hot-paths.ts';
import { isRingqlError } from '../../src/core/errors.ts';
import type { ScanSpec, StoreConfig } from '../../src/store/types.ts';

const BASE = 1_736_000_000_000_000;
const SEC = 1_000_000;
const edge = sourceByNameOrId('edge.logs.prod')!;
const relay = sourceByNameOrId('function-relay-logs')!;
const HOT = DEFAULT_HOT_PATHS['edge.logs.prod']!.map((p) => [...p]);

function config(segmentRows: number, extra: Partial<StoreConfig> = {}): StoreConfig {
  return { retentionUs: 1e15, maxRows: 1e9, maxBytes: 1e12, segmentRows, maxEventDepth: 16, maxStringBytes: 1 << 20, ...extra };
}

interface ModelRow { id: string; ts: number; seq: number; project: string | null; event: Record<string, unknown> }
interface GotRow { id: string; ts: number; seq: number; project: string | null; hot: HotValue[] }

const PROJECTS = ['a', 'b', 'c', null] as const;
const eventArb = fc.record({
  t: fc.integer({ min: 0, max: 30 }),
  sub: fc.constantFrom(0, 0, 0, 1, 999_999),
  project: fc.constantFrom(...PROJECTS),
  url: fc.constantFrom('https://a/rest', 'https://b/auth', null),
});

function makeEvent(i: number, e: { t: number; sub: number; project: string | null; url: string | null }, relayShape: boolean): Record<string, unknown> {
  const request: Record<string, unknown> = { path: '/p' + (i % 3) };
  if (e.url !== null) request.url = e.url;
  const metadata: Record<string, unknown> = { request };
  const ev: Record<string, unknown> = { id: `e${i}`, timestamp: BASE + e.t * SEC + e.sub, event_message: `m${i}`, metadata };
  if (e.project !== null) {
    if (relayShape) metadata.project_ref = e.project;
    else ev.project = e.project;
  }
  return ev;
}

function collect(store: SourceStore, spec: ScanSpec): GotRow[] {
  const out: GotRow[] = [];
  const hot = spec.hot ?? [];
  for (const b of store.scan(spec)) {
    expect(b.n).toBeGreaterThan(0);
    expect(b.n).toBeLessThanOrEqual(spec.batchSize ?? 1024);
    expect(b.ts.length).toBe(spec.batchSize ?? 1024);
    for (let i = 0; i < b.n; i++) {
      const text = b.rows[i]!.json(b.idx[i]!);
      const bytes = b.rows[i]!.jsonBytes(b.idx[i]!);
      // Sealed rows are kept as UTF-8 bytes: they must decode to exactly the row's text.
      expect(typeof bytes === 'string' ? bytes : bytes.toString('utf8')).toBe(text);
      const j = JSON.parse(text) as { id: string; timestamp: number };
      expect(j.timestamp).toBe(b.ts[i]);
      out.push({ id: j.id, ts: b.ts[i]!, seq: b.seq[i]!, project: b.project[i]!, hot: hot.map((k) => store.hotDict(k).get(b.hot.get(k)![i]!)!) });
    }
  }
  return out;
}

const specArb = fc.record({
  project: fc.constantFrom<(string | null | undefined)[]>('a', 'b', 'c', null, undefined, 'zz'),
  min: fc.option(fc.integer({ min: -1, max: 31 }), { nil: undefined }),
  minInclusive: fc.boolean(),
  max: fc.option(fc.integer({ min: -1, max: 31 }), { nil: undefined }),
  maxInclusive: fc.boolean(),
  order: fc.constantFrom<('desc' | 'asc' | 'any')[]>('desc', 'asc', 'any'),
  afterSeqFrac: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
  batchSize: fc.integer({ min: 1, max: 9 }),
  hot: fc.boolean(),
});

type SpecInput = typeof specArb extends fc.Arbitrary<infer T> ? T : never;

function toSpec(s: SpecInput, lastSeq: number, hotKeys: readonly string[]): ScanSpec {
  const spec: ScanSpec = { order: s.order, batchSize: s.batchSize };
  if (s.project !== undefined) spec.project = s.project;
  if (s.min !== undefined) { spec.minTs = BASE + s.min * SEC; spec.minInclusive = s.minInclusive; }
  if (s.max !== undefined) { spec.maxTs = BASE + s.max * SEC; spec.maxInclusive = s.maxInclusive; }
  if (s.afterSeqFrac !== undefined) spec.afterSeq = Math.floor(s.afterSeqFrac * lastSeq);
  if (s.hot) spec.hot = [...hotKeys];
  return spec;
}

function naive(rows: ModelRow[], spec: ScanSpec): ModelRow[] {
  return rows.filter((r) => {
    if (spec.project !== undefined && r.project !== spec.project) return false;
    if (spec.minTs !== undefined && (spec.minInclusive === false ? r.ts <= spec.minTs : r.ts < spec.minTs)) return false;
    if (spec.maxTs !== undefined && (spec.maxInclusive === false ? r.ts >= spec.maxTs : r.ts > spec.maxTs)) return false;
    if (spec.afterSeq !== undefined && r.seq <= spec.afterSeq) return false;
    return true;
  });
}

/** Same rows, and (unless order is 'any') timestamps in the requested order. */
function expectSameRows(got: GotRow[], want: ModelRow[], spec: ScanSpec, byId: Map<string, ModelRow>, hotKeys: readonly string[]): void {
  expect(got.map((r) => r.id).sort()).toEqual(want.map((r) => r.id).sort());
  if (spec.order !== 'any') {
    const dir = spec.order === 'desc' ? -1 : 1;
    for (let i = 1; i < got.length; i++) expect(dir * (got[i]!.ts - got[i - 1]!.ts)).toBeGreaterThanOrEqual(0);
  }
  for (const g of got) {
    const m = byId.get(g.id)!;
    expect(g.ts).toBe(m.ts);
    expect(g.seq).toBe(m.seq);
    expect(g.project).toBe(m.project);
    if (spec.hot) expect(g.hot).toEqual(HOT.filter((_, i) => spec.hot!.includes(hotKeys[i]!)).map((p) => hotValueAt(m.event, p)));
  }
}

/**
 * Sealed segments after `rows` rows: compaction is a base-4 counter (segment-set.ts), so each level of
 * segment sizes holds at most 3 segments; +2 for seals of uneven size. (63 one-row seals keep 9.)
 */
function maxSegments(rows: number, segmentRows: number): number {
  let levels = 0;
  for (let cap = 1; cap < rows / segmentRows + 1; cap *= 4) levels++;
  return 3 * levels + 2;
}

describe('SourceStore scans equal a naive sorted filter', () => {
  it('for random events, arrival orders, batch splits and scans', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventArb, { minLength: 0, maxLength: 120, size: 'max' }),
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 120, maxLength: 120 }),
        fc.array(fc.integer({ min: 1, max: 25 }), { minLength: 1, maxLength: 40 }),
        fc.array(specArb, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 9 }),
        fc.boolean(),
        async (evs, keys, splits, specs, segmentRows, relayShape) => {
          const def = relayShape ? relay : edge;
          const store = new SourceStore(def, config(segmentRows), relayShape ? [] : HOT);
          const events = evs.map((e, i) => makeEvent(i, e, relayShape));
          const order = events.map((_, i) => i).sort((x, y) => keys[x]! - keys[y]! || x - y);
          const model: ModelRow[] = [];
          const byId = new Map<string, ModelRow>();
          let pos = 0, si = 0, k = 0;
          while (pos < order.length) {
            const n = splits[si++ % splits.length]!;
            const batch = order.slice(pos, pos + n).map((i) => events[i]!);
            pos += n;
            const r = store.ingest(batch, BASE + 100 * SEC);
            expect(r).toEqual({ stored: batch.length, dropped: 0 });
            for (const ev of batch) {
              const p = relayShape ? ((ev.metadata as Record<string, unknown>).project_ref as string | undefined) : (ev.project as string | undefined);
              const row: ModelRow = { id: ev.id as string, ts: ev.timestamp as number, seq: model.length + 1, project: p ?? null, event: ev };
              model.push(row);
              byId.set(row.id, row);
            }
            expect(store.lastSeq()).toBe(model.length);
            expect(store.rowCount).toBe(model.length);
            const spec = toSpec(specs[k++ % specs.length]!, store.lastSeq(), store.hotKeys);
            expectSameRows(collect(store, spec), naive(model, spec), spec, byId, store.hotKeys);
          }
          for (const s of specs) {
            const spec = toSpec(s, store.lastSeq(), store.hotKeys);
            expectSameRows(collect(store, spec), naive(model, spec), spec, byId, store.hotKeys);
          }
          const st = store.stats();
          expect(st.physicalRows).toBe(model.length);
          expect(st.segments).toBeLessThanOrEqual(maxSegments(model.length, segmentRows));
          expect(store.minTs).toBe(model.length ? Math.min(...model.map((r) => r.ts)) : null);
          expect(store.maxTs).toBe(model.length ? Math.max(...model.map((r) => r.ts)) : null);
          // Sealed blocks are compressed between turns of the event loop, as in the server: without a turn
          // here every run's blocks stay queued, and a long shrink of a failure ran the worker out of heap.
          await new Promise<void>((resolve) => setImmediate(resolve));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a scan in flight keeps its snapshot while ingest seals and compacts', () => {
    const store = new SourceStore(edge, config(4), HOT);
    const first = Array.from({ length: 30 }, (_, i) => makeEvent(i, { t: i % 10, sub: 0, project: 'a', url: null }, false));
    store.ingest(first, BASE);
    const it = store.scan({ project: 'a', order: 'desc', batchSize: 3 })[Symbol.iterator]();
    const seen: string[] = [];
    const take = () => { const r = it.next(); if (!r.done) for (let i = 0; i < r.value.n; i++) seen.push((JSON.parse(r.value.rows[i]!.json(r.value.idx[i]!)) as { id: string }).id); return !r.done; };
    take();
    store.ingest(Array.from({ length: 50 }, (_, i) => makeEvent(100 + i, { t: i % 20, sub: 0, project: 'a', url: null }, false)), BASE);
    while (take());
    expect(seen.sort()).toEqual(first.map((e) => e.id as string).sort());
  });

  it('limit-style desc scans touch only the newest segments', () => {
    const store = new SourceStore(edge, config(64), HOT);
    for (let b = 0; b < 100; b++) {
      store.ingest(Array.from({ length: 64 }, (_, i) => makeEvent(b * 64 + i, { t: b, sub: i, project: 'a', url: null }, false)), BASE);
    }
    const it = store.scan({ project: 'a', order: 'desc', batchSize: 100 })[Symbol.iterator]();
    const r = it.next();
    expect(r.done).toBe(false);
    expect(r.value!.n).toBe(100);
    expect(r.value!.ts[0]).toBe(BASE + 99 * SEC + 63);
  });
});

describe('all-or-nothing ingest', () => {
  const bad: [unknown, RegExp][] = [
    [{ timestamp: 'abc' }, /^timestamp "abc" is not an ISO 8601 string or epoch number$/],
    [[1, 2], /must be a JSON object/],
    [{ metadata: 3 }, /metadata must be an object/],
    [{ id: '' }, /id/],
    [{ event_message: {} }, /event_message must be a string/],
    [{ metadata: { a: 'x'.repeat(2000) } }, /longer than 1000 bytes/],
    [{ metadata: { a: { b: { c: { d: { e: 1 } } } } } }, /nested deeper than 5/],
  ];
  it('a batch with one bad event stores nothing and names it', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { minLength: 1, maxLength: 30 }), fc.nat(), fc.integer({ min: 0, max: bad.length - 1 }), (evs, at, which) => {
        const store = new SourceStore(edge, config(5, { maxStringBytes: 1000, maxEventDepth: 5 }), HOT);
        store.ingest([makeEvent(9999, { t: 1, sub: 0, project: 'a', url: 'https://x' }, false)], BASE);
        const before = { rows: store.rowCount, seq: store.lastSeq(), schema: store.schema().length, cols: store.topLevelColumns().size, dict: store.hotDict(store.hotKeys[0]!).length };
        const batch: unknown[] = evs.map((e, i) => ({ ...makeEvent(i, e, false), [`newcol${i}`]: { deep: i } }));
        const index = at % (batch.length + 1);
        batch.splice(index, 0, bad[which]![0]);
        let err: unknown;
        try { store.ingest(batch, BASE); } catch (e) { err = e; }
        expect(isRingqlError(err)).toBe(true);
        if (!isRingqlError(err)) return;
        expect(err.code).toBe('invalid_events');
        expect(err.status).toBe(400);
        expect(err.message).toBe(`1 of ${batch.length} events are invalid; nothing was stored`);
        const errors = err.details.errors as { index: number; message: string }[];
        expect(errors).toHaveLength(1);
        expect(errors[0]!.index).toBe(index);
        expect(errors[0]!.message).toMatch(bad[which]![1]);
        expect({ rows: store.rowCount, seq: store.lastSeq(), schema: store.schema().length, cols: store.topLevelColumns().size, dict: store.hotDict(store.hotKeys[0]!).length }).toEqual(before);
        expect(collect(store, { order: 'desc' }).map((r) => r.id)).toEqual(['e9999']);
      }),
      { numRuns: 200 },
    );
  });
  it('caps the error list at 100', () => {
    const store = new SourceStore(edge, config(5), HOT);
    try {
      store.ingest(Array.from({ length: 250 }, () => ({ timestamp: 'x' })), BASE);
      expect.unreachable();
    } catch (e) {
      if (!isRingqlError(e)) throw e;
      expect(e.message).toBe('250 of 250 events are invalid; nothing was stored');
      expect((e.details.errors as unknown[]).length).toBe(100);
    }
  });
});

describe('schema and columns', () => {
  it('is seeded from the sample event and grows with top-level keys', () => {
    const store = new SourceStore(edge, config(5), HOT);
    const paths = store.schema().map((f) => f.path.join('.'));
    expect(paths).toContain('metadata.request.path');
    expect(paths).toContain('metadata.response.status_code');
    expect(store.schema().find((f) => f.path.join('.') === 'metadata.response.status_code')!.type).toBe('INT64');
    expect([...store.topLevelColumns()]).toEqual(['id', 'timestamp', 'event_message', 'metadata', 'project']);
    store.ingest([{ appname: 'x', metadata: { brand_new: 1.5 } }], BASE);
    expect(store.topLevelColumns().has('appname')).toBe(true);
    expect(store.schema().find((f) => f.path.join('.') === 'metadata.brand_new')!.type).toBe('FLOAT64');
    const relayStore = new SourceStore(relay, config(5));
    expect([...relayStore.topLevelColumns()]).toEqual(['id', 'timestamp', 'event_message', 'metadata']);
  });
});
