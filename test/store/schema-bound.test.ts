// The per-source field bound (RINGQL_MAX_FIELDS_PER_SOURCE) and schema forgetting: a batch that would
// pass the bound is rejected whole with the schema unchanged; paths go when the rows using them are
// evicted (capacity or retention), the SAMPLE-EVENTS seed never does; lookups by name are constant-time.

import { describe, expect, it, vi } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { planSql } from '../../src/endpoints/query-sql.ts';
import { SourceStore } from '../../src/store/source-store.ts';
import { sourceByNameOrId } from '../../src/store/sources.ts';
import { isRingqlError } from '../../src/core/errors.ts';
import type { StoreConfig } from '../../src/store/types.ts';

const BASE = 1_736_000_000_000_000;
const SEC = 1_000_000;
const edge = sourceByNameOrId('edge.logs.prod')!;

function config(extra: Partial<StoreConfig> = {}): StoreConfig {
  return { retentionUs: 1e15, maxRows: 1e9, maxBytes: 1e12, segmentRows: 4096, maxEventDepth: 16, maxStringBytes: 1 << 20, maxFieldsPerSource: 50, ...extra };
}

const normal = (i: number, t = i) => ({ id: `n${i}`, timestamp: BASE + t * SEC, project: 'p', event_message: 'm', metadata: { request: { path: '/x', method: 'GET' } } });
function wide(tag: string, keys: number, t: number, nested = false): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (let k = 0; k < keys; k++) o[`${tag}_${k}`] = k;
  return nested ? { id: tag, timestamp: BASE + t * SEC, metadata: { w: o } } : { id: tag, timestamp: BASE + t * SEC, ...o };
}

function rejection(f: () => unknown): { message: string; errors: { index: number; message: string }[] } {
  try {
    f();
  } catch (e) {
    if (isRingqlError(e) && e.code === 'invalid_events') return { message: e.message, errors: (e.details as { errors: { index: number; message: string }[] }).errors };
    throw e;
  }
  throw new Error('expected invalid_events');
}

const snapshot = (s: SourceStore) => ({ rows: s.rowCount, seq: s.lastSeq(), fields: s.schema().map((f) => f.path.join('.')), cols: [...s.topLevelColumns()], stats: s.stats().schemaFields });

describe('the field bound', () => {
  it('seeded paths do not count: a fresh source takes normal events and up to the bound of new ones', () => {
    const s = new SourceStore(edge, config());
    const seeded = s.schema().length;
    expect(seeded).toBeGreaterThan(50); // the SAMPLE-EVENTS seed alone is past the bound
    s.ingest([normal(1), wide('a', 30, 1), wide('b', 20, 1)], BASE);
    expect(s.schema().length).toBe(seeded + 50);
  });

  it('an event that would pass the bound is rejected with its index; nothing of the batch is stored, the schema not grown', () => {
    for (const nested of [false, true]) {
      const s = new SourceStore(edge, config());
      s.ingest([wide('a', 45, 1, nested)], BASE);
      const before = snapshot(s);
      const r = rejection(() => s.ingest([normal(1), wide('b', 3, 2, nested), wide('c', 10, 3, nested), normal(2)], BASE));
      expect(r.errors.map((e) => e.index)).toEqual([2]);
      expect(r.errors[0]!.message).toMatch(/50 distinct field paths.*RINGQL_MAX_FIELDS_PER_SOURCE/);
      expect(snapshot(s)).toEqual(before);
      // Known paths still go in, and so do new ones up to the bound.
      s.ingest([normal(3), wide('a', 45, 4, nested), wide('d', nested ? 4 : 5, 5, nested)], BASE);
      expect(s.rowCount).toBe(before.rows + 3);
    }
  });

  it('top-level keys seen only as null count too', () => {
    const s = new SourceStore(edge, config({ maxFieldsPerSource: 16 }));
    const nulls: Record<string, unknown> = { id: 'z', timestamp: BASE };
    for (let k = 0; k < 17; k++) nulls[`z${k}`] = null;
    expect(rejection(() => s.ingest([nulls], BASE)).errors[0]!.index).toBe(0);
    expect(s.topLevelColumns().has('z0')).toBe(false);
  });
});

describe('forgetting paths with the rows that used them', () => {
  it('capacity eviction inside one open segment (2,000-row store) forgets the wide keys, keeps the seed and live paths', () => {
    const s = new SourceStore(edge, config({ maxRows: 200, maxFieldsPerSource: 10_000 }));
    const seed = s.schema().map((f) => f.path.join('.'));
    s.ingest([{ ...normal(0), keep: 1, metadata: { kept: { x: 1 } } }], BASE);
    const baseline = s.stats();
    const before = s.schema().length;
    for (let b = 0; b < 20; b++) s.ingest([wide(`w${b}`, 400, 1 + b, b % 2 === 1)], BASE);
    expect(s.schema().length).toBe(before + 20 * 400 + 1); // + metadata.w
    expect(s.stats().schemaBytes).toBeGreaterThan(baseline.schemaBytes + 8000 * 100);
    // Newer normal rows push the wide ones out by capacity.
    for (let b = 0; b < 10; b++) s.ingest(Array.from({ length: 100 }, (_, i) => normal(1000 + b * 100 + i, 100 + b)), BASE);
    const paths = s.schema().map((f) => f.path.join('.'));
    expect(paths.some((p) => p.startsWith('w'))).toBe(false);
    expect(paths.some((p) => p.startsWith('metadata.w'))).toBe(false);
    expect([...s.topLevelColumns()].some((c) => c.startsWith('w'))).toBe(false);
    expect(paths).toEqual(expect.arrayContaining(seed));
    expect(s.stats().schemaBytes).toBeLessThan(baseline.schemaBytes + 8000 * 10);
    // The row carrying `keep` was the oldest: gone too, and so is its path.
    expect(paths).not.toContain('keep');
  });

  it('a path stays while any held row uses it; retention eviction forgets it', () => {
    const s = new SourceStore(edge, config({ retentionUs: 100 * SEC, segmentRows: 8 }));
    s.ingest([...Array.from({ length: 8 }, (_, i) => ({ ...normal(100 + i, i), old: 1 })), { ...normal(1, 50), both: 1 }], BASE + 60 * SEC);
    s.ingest(Array.from({ length: 40 }, (_, i) => ({ ...normal(10 + i, 60 + i), both: 2 })), BASE + 100 * SEC);
    expect(s.schema().map((f) => f.path.join('.'))).toContain('old');
    s.evict(BASE + 140 * SEC); // retention now drops everything before t=40
    const paths = s.schema().map((f) => f.path.join('.'));
    expect(paths).toContain('both');
    expect(paths).not.toContain('old');
  });

  it('forgotten paths free room under the bound for new keys', () => {
    const s = new SourceStore(edge, config({ maxRows: 50, maxFieldsPerSource: 100 }));
    s.ingest([wide('a', 100, 1)], BASE);
    expect(rejection(() => s.ingest([wide('b', 10, 2)], BASE)).errors[0]!.index).toBe(0);
    s.ingest(Array.from({ length: 60 }, (_, i) => normal(i, 10 + i)), BASE);
    s.ingest([wide('b', 100, 100)], BASE);
    expect(s.schema().some((f) => f.path[0] === 'b_99')).toBe(true);
  });
});

describe('name lookups', () => {
  it('topLevelField answers for 20,000 columns without scanning them', () => {
    const s = new SourceStore(edge, config({ maxFieldsPerSource: 30_000 }));
    for (let b = 0; b < 20; b++) s.ingest([wide(`k${b}`, 1000, b)], BASE);
    expect(s.topLevelField('k19_999')).toEqual({ path: ['k19_999'], type: 'INT64', mode: 'NULLABLE' });
    expect(s.topLevelField('nope')).toBeUndefined();
    expect(s.topLevelField('timestamp')!.type).toBe('TIMESTAMP');
  });

  it('binding a query over 10,000 columns never scans the schema list (was once per column: O(columns × fields))', () => {
    const store = new Store({ ...defaultStoreConfig({}), maxFieldsPerSource: 20_000 });
    const s = store.source('edge.logs.prod')!;
    for (let b = 0; b < 10; b++) s.ingest([wide(`k${b}`, 1000, b)], BASE);
    const list = vi.spyOn(s, 'schema');
    const plan = planSql(store, 'select t.k9_999, K0_0, t.id from `edge.logs.prod` t where k5_5 = 5', { nowUs: BASE });
    expect(plan.cols.map((c) => c.name)).toEqual(['k9_999', 'K0_0', 'id']);
    expect(list).not.toHaveBeenCalled();
  });
});
