// How cluster figures add up (issue 20 item 3): each partition counted once, from its owner's report; a
// member that did not answer, or a partition its owner is still rebuilding, is reported missing, never
// silently left out. Per-partition figures of a real store add up to its totals.

import { describe, expect, it } from 'vitest';
import { addUp, localReport, type NodeAnswer, type NodeReport } from '../../src/cluster/node-report.ts';
import { partitionOf } from '../../src/cluster/partition.ts';
import { ownedBy } from '../../src/cluster/rendezvous.ts';
import { parseTimestamp } from '../../src/core/time.ts';
import { fixtureEvents, fixtureStore } from '../helpers/fixture-store.ts';

const P = 8;
const SRC = [{ id: 'id-edge', name: 'edge' }];
const ids = ['node-a', 'node-b'];
const ownedA = ownedBy('node-a', P, ids), ownedB = ownedBy('node-b', P, ids);

/** A report holding, for every partition given, 10 * (p + 1) rows with timestamps 1000p .. 1000p + 1. */
function report(node: string, owned: number[], parts: number[], rebuilding: number[] = []): NodeReport {
  return { node, owned, rebuilding, sources: [{ name: 'edge', evicted: 5, parts: parts.map((p) => [p, 10 * (p + 1), 1000 * p, 1000 * p + 1]) }] };
}
const rowsOf = (ps: number[]): number => ps.reduce((n, p) => n + 10 * (p + 1), 0);

describe('adding node reports up', () => {
  it('counts each partition once, by its owner, even when another node still holds it', () => {
    expect(ownedA.length).toBeGreaterThan(0);
    expect(ownedB.length).toBeGreaterThan(0);
    // node-b still holds one of node-a's partitions (it has not dropped it yet): it must not count twice.
    const answers: NodeAnswer[] = [
      { id: 'node-a', url: 'a', report: report('node-a', ownedA, ownedA) },
      { id: 'node-b', url: 'b', report: report('node-b', [...ownedB, ownedA[0]!], [...ownedB, ownedA[0]!]) },
    ];
    const t = addUp(answers, P, SRC);
    expect(t.sources).toEqual([{ id: 'id-edge', name: 'edge', rows: rowsOf(Array.from({ length: P }, (_, p) => p)), min_timestamp: 0, max_timestamp: 1000 * (P - 1) + 1, evicted: 10 }]);
    expect(t.missing).toEqual([]);
    expect(t.unanswered).toEqual([]);
    expect(t.perNode.get('node-a')).toEqual({ edge: rowsOf(ownedA) });
    expect(t.perNode.get('node-b')).toEqual({ edge: rowsOf(ownedB) });
  });

  it('a member that did not answer is named, and its partitions are missing rather than counted as empty', () => {
    const t = addUp([{ id: 'node-a', url: 'a', report: report('node-a', ownedA, ownedA) }, { id: 'node-b', url: 'b', report: null }], P, SRC);
    expect(t.unanswered).toEqual(['node-b']);
    expect(t.missing).toEqual(ownedB);
    expect(t.sources[0]!.rows).toBe(rowsOf(ownedA));
    expect(t.sources[0]!.evicted).toBe(5);
  });

  it('a partition its owner is still rebuilding is missing', () => {
    const rebuilding = [ownedB[0]!];
    const t = addUp([
      { id: 'node-a', url: 'a', report: report('node-a', ownedA, ownedA) },
      { id: 'node-b', url: 'b', report: report('node-b', ownedB, ownedB.filter((p) => p !== rebuilding[0]), rebuilding) },
    ], P, SRC);
    expect(t.missing).toEqual(rebuilding);
    expect(t.sources[0]!.rows).toBe(rowsOf(Array.from({ length: P }, (_, p) => p).filter((p) => p !== rebuilding[0])));
  });

  it('a store\'s per-partition figures add up to its own totals', () => {
    const store = fixtureStore();
    const all = Array.from({ length: P }, (_, p) => p);
    const rep = localReport(store, 'solo', { owned: all, rebuilding: [] }, P);
    const t = addUp([{ id: 'solo', url: 'x', report: rep }], P, store.sources().map((s) => s.def));
    for (const s of store.sources()) {
      const got = t.sources.find((x) => x.name === s.def.name)!;
      expect([got.rows, got.min_timestamp, got.max_timestamp]).toEqual([s.rowCount, s.minTs, s.maxTs]);
    }
    // Partition figures follow the project: the edge fixture's events, grouped by hand from the file.
    const want = new Map<number, [number, number, number]>();
    for (const e of fixtureEvents('edge.logs.prod')) {
      const p = partitionOf(typeof e.project === 'string' ? e.project : '', P), ts = parseTimestamp(e.timestamp)!;
      const w = want.get(p);
      want.set(p, w ? [w[0] + 1, Math.min(w[1], ts), Math.max(w[2], ts)] : [1, ts, ts]);
    }
    const parts = rep.sources.find((s) => s.name === 'edge.logs.prod')!.parts;
    expect(new Map(parts.map(([p, n, min, max]) => [p, [n, min, max]]))).toEqual(want);
    expect(want.size).toBeGreaterThan(1);
  });

  it('stay right when eviction hides the oldest rows of a sealed segment whose figures were kept', () => {
    const store = fixtureStore();
    const all = Array.from({ length: P }, (_, p) => p);
    const total = (): [number, number | null] => {
      const t = addUp([{ id: 'solo', url: 'x', report: localReport(store, 'solo', { owned: all, rebuilding: [] }, P) }], P, store.sources().map((s) => s.def));
      const e = t.sources.find((x) => x.name === 'edge.logs.prod')!;
      return [e.rows, e.min_timestamp];
    };
    const edge = store.source('edge.logs.prod')!;
    const before = edge.rowCount;
    expect(total()).toEqual([before, edge.minTs]);
    // Hide every row older than the second-oldest timestamp of the file.
    const times = fixtureEvents('edge.logs.prod').map((e) => parseTimestamp(e.timestamp)!).sort((x, y) => x - y);
    const cut = times.find((t) => t > times[0]!)!;
    store.evict(cut + store.config.retentionUs);
    expect(edge.rowCount).toBe(times.filter((t) => t >= cut).length);
    expect(edge.rowCount).toBeLessThan(before);
    expect(total()).toEqual([edge.rowCount, cut]);
  });
});
