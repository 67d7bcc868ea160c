// SourceStore.dropProjects (cluster mode's hand-over of a partition): every row of the named projects
// goes, from sealed segments and the open one; the other projects' rows stay exactly as they were.

import { describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';

const NOW = Date.parse('2025-03-01T12:00:00Z') * 1000;

function rows(store: Store): { project: string; id: string }[] {
  const s = store.source('edge.logs.prod')!;
  const out: { project: string; id: string }[] = [];
  for (const b of s.scan({ order: 'asc' })) for (let k = 0; k < b.n; k++) out.push({ project: String(b.project[k]), id: (JSON.parse(b.rows[k]!.json(b.idx[k]!)) as { id: string }).id });
  return out;
}

describe('dropProjects', () => {
  it('removes the projects from sealed and open rows and keeps the rest', () => {
    const store = new Store({ ...defaultStoreConfig({}), segmentRows: 64 });
    const src = store.source('edge.logs.prod')!;
    const events = Array.from({ length: 1000 }, (_, i) => ({ id: `e${i}`, project: `p${i % 5}`, event_message: `m${i}`, timestamp: new Date(NOW / 1000 - 100_000 + i * 37 % 100_000).toISOString() }));
    for (let i = 0; i < events.length; i += 90) src.ingest(events.slice(i, i + 90), NOW);
    const before = rows(store);
    expect(src.stats().segments).toBeGreaterThan(1);
    expect(src.stats().openRows).toBeGreaterThan(0);
    const gone = src.dropProjects((p) => p === 'p1' || p === 'p3');
    expect(gone).toBe(400);
    expect(src.rowCount).toBe(600);
    const after = rows(store);
    expect(after.map((r) => r.id).sort()).toEqual(before.filter((r) => r.project !== 'p1' && r.project !== 'p3').map((r) => r.id).sort());
    // Ingest goes on normally afterwards (seals and merges over the rewritten segments).
    src.ingest(events.slice(0, 200).map((e) => ({ ...e, id: `again-${e.id}` })), NOW);
    expect(src.rowCount).toBe(800);
  });
});
