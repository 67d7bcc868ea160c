// A project's rows of the open segment (scan.ts openCursor): the rows a project scan returns are the
// project's events inside the bounds, in time order, after every ingest; a repeated scan of one project
// reads the list made for the first (it is not filtered again) until rows are added.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SourceStore } from '../../src/store/source-store.ts';
import { sourceByNameOrId } from '../../src/store/sources.ts';
import { DEFAULT_HOT_PATHS } from '../../src/store/hot-paths.ts';
import { OpenSegment } from '../../src/store/open-segment.ts';
import { openCursor } from '../../src/store/scan.ts';
import type { ScanSpec, StoreConfig } from '../../src/store/types.ts';

const BASE = 1_736_000_000_000_000;
const SEC = 1_000_000;
const edge = sourceByNameOrId('edge.logs.prod')!;
const HOT = DEFAULT_HOT_PATHS['edge.logs.prod']!.map((p) => [...p]);
/** Every row stays in the open segment. */
const CONFIG: StoreConfig = { retentionUs: 1e15, maxRows: 1e9, maxBytes: 1e12, segmentRows: 1_000_000, maxEventDepth: 16, maxStringBytes: 1 << 20, compress: false };

interface Ev { id: string; t: number; p: string | null }

function ids(s: SourceStore, spec: ScanSpec): string[] {
  const out: string[] = [];
  for (const b of s.scan(spec)) for (let i = 0; i < b.n; i++) out.push((JSON.parse(b.rows[i]!.json(b.idx[i]!)) as { id: string }).id);
  return out;
}

describe('a project\'s open-segment rows', () => {
  it('are the project\'s events inside the bounds, in time order, after every ingest', () => {
    fc.assert(fc.property(
      // Distinct seconds, so the order is fully given by time.
      fc.uniqueArray(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 120 }),
      fc.array(fc.constantFrom('a', 'b', 'c', null), { minLength: 120, maxLength: 120 }),
      fc.integer({ min: 1, max: 40 }),
      fc.array(fc.record({ p: fc.constantFrom('a', 'b', null, 'never'), lo: fc.option(fc.integer({ min: 0, max: 400 })), hi: fc.option(fc.integer({ min: 0, max: 400 })), order: fc.constantFrom('desc' as const, 'asc' as const) }), { minLength: 1, maxLength: 6 }),
      (ts, projects, batch, specs) => {
        const evs: Ev[] = ts.map((t, i) => ({ id: `r${i}`, t, p: projects[i]! }));
        const s = new SourceStore(edge, CONFIG, HOT);
        for (let i = 0; i < evs.length; i += batch) {
          s.ingest(evs.slice(i, i + batch).map((e) => (e.p === null ? { id: e.id, timestamp: BASE + e.t * SEC } : { id: e.id, timestamp: BASE + e.t * SEC, project: e.p })), BASE + 1000 * SEC);
          const seen = evs.slice(0, i + batch);
          // Each spec twice: the second scan of a project reads the list the first made.
          for (const x of [...specs, ...specs]) {
            const spec: ScanSpec = { order: x.order, project: x.p };
            if (x.lo !== null) spec.minTs = BASE + x.lo * SEC;
            if (x.hi !== null) spec.maxTs = BASE + x.hi * SEC;
            const want = seen.filter((e) => e.p === x.p && (x.lo === null || e.t >= x.lo) && (x.hi === null || e.t <= x.hi))
              .sort((a, b) => (x.order === 'asc' ? a.t - b.t : b.t - a.t)).map((e) => e.id);
            expect(ids(s, spec)).toEqual(want);
          }
        }
      },
    ), { numRuns: 60 });
  });

  it('is made once per project until rows are added', () => {
    const open = new OpenSegment(0);
    for (let i = 0; i < 50; i++) open.append(BASE + i * SEC, i, i % 3, `{"id":"r${i}"}`, null, []);
    const all = { lo: -Infinity, loStrict: false, hi: Infinity, hiStrict: false };
    const first = openCursor(open, 1, all, -1)!;
    const again = openCursor(open, 1, { lo: BASE + 10 * SEC, loStrict: false, hi: BASE + 30 * SEC, hiStrict: true }, 1)!;
    expect(again.perm).toBe(first.perm);
    expect([...(first.perm as Uint32Array)]).toEqual(Array.from({ length: 50 }, (_, i) => i).filter((i) => i % 3 === 1));
    // Rows 10..29 of project 1 (10, 13, ..., 28), oldest first.
    expect([again.row(), again.pos, again.end]).toEqual([10, 3, 10]);
    expect(openCursor(open, 2, all, -1)!.perm).not.toBe(first.perm);
    open.append(BASE + 60 * SEC, 60, 1, '{"id":"r60"}', null, []);
    const after = openCursor(open, 1, all, -1)!;
    expect(after.perm).not.toBe(first.perm);
    expect(after.row()).toBe(50);
  });
});
