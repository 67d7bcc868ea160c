// Column runs (SourceStore.scanRuns): the rows an unordered scan returns, as indices into each segment's
// own columns, are exactly the scan's rows in the scan's order (an aggregate's groups come out in the
// order they are first seen), with the same timestamps and hot ids, for project filters,
// bounds on segment edges, open + sealed (some compressed) segments, the watermark and a sequence floor.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SourceStore } from '../../src/store/source-store.ts';
import { sourceByNameOrId } from '../../src/store/sources.ts';
import { DEFAULT_HOT_PATHS } from '../../src/store/hot-paths.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';
import type { ScanSpec, StoreConfig } from '../../src/store/types.ts';

const BASE = 1_736_000_000_000_000;
const SEC = 1_000_000;
const edge = sourceByNameOrId('edge.logs.prod')!;
const HOT = DEFAULT_HOT_PATHS['edge.logs.prod']!.map((p) => [...p]);

/** Each returned row as `seq ts project hot ids json`, in the order returned. */
function viaScan(s: SourceStore, spec: ScanSpec): string[] {
  const out: string[] = [];
  for (const b of s.scan(spec)) {
    for (let i = 0; i < b.n; i++) out.push(`${b.seq[i]} ${b.ts[i]} ${b.project[i]} ${spec.hot!.map((k) => b.hot.get(k)![i]).join(',')} ${b.rows[i]!.json(b.idx[i]!)}`);
  }
  return out;
}

function viaRuns(s: SourceStore, spec: ScanSpec): string[] {
  const out: string[] = [];
  for (const run of s.scanRuns(spec)) {
    for (let j = 0; j < run.n; j++) {
      const r = run.sel[j]!;
      const seq = run.rows.seqBase + run.rows.seq[r]!;
      out.push(`${seq} ${run.ts.at(r)} ${run.projectNames[run.rows.pid[r]!] ?? null} ${run.hot.map((h) => h[r]).join(',')} ${run.rows.json(r)}`);
    }
  }
  return out;
}

describe('SourceStore.scanRuns', () => {
  it('returns the rows an unordered scan returns, in its order, read from the segments\' own columns', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ t: fc.integer({ min: 0, max: 200 }), p: fc.constantFrom('a', 'b', 'c', null), path: fc.constantFrom('/x', '/y', '/rest/1') }), { minLength: 1, maxLength: 150 }),
      fc.integer({ min: 2, max: 24 }), fc.integer({ min: 1, max: 40 }), fc.boolean(), fc.integer({ min: 0, max: 120 }),
      fc.array(fc.record({ p: fc.constantFrom(undefined, 'a', null, 'zz'), lo: fc.option(fc.nat()), hi: fc.option(fc.nat()), loIn: fc.boolean(), hiIn: fc.boolean(), after: fc.option(fc.nat()) }), { minLength: 1, maxLength: 8 }),
      (evs, segmentRows, batch, compress, cut, specs) => {
        const config: StoreConfig = { retentionUs: 1e15, maxRows: 1e9, maxBytes: 1e12, segmentRows, maxEventDepth: 16, maxStringBytes: 1 << 20, compress };
        const s = new SourceStore(edge, config, HOT);
        for (let i = 0; i < evs.length; i += batch) {
          s.ingest(evs.slice(i, i + batch).map((e, j) => {
            const ev: Record<string, unknown> = { id: `r${i + j}`, timestamp: BASE + e.t * SEC, metadata: { request: { path: e.path, url: `https://h${e.path}`, method: 'GET' } } };
            if (e.p !== null) ev.project = e.p;
            return ev;
          }), BASE + 1000 * SEC);
          if (i === 0) compressPendingNow();
        }
        s.evict(BASE + cut * SEC + config.retentionUs);
        const stamps = [...new Set(evs.map((e) => BASE + e.t * SEC))].flatMap((t) => [t, t + 1]);
        for (const x of specs) {
          const spec: ScanSpec = { order: 'any', hot: s.hotKeys.slice() };
          if (x.p !== undefined) spec.project = x.p;
          if (x.lo !== null) { spec.minTs = stamps[x.lo % stamps.length]; spec.minInclusive = x.loIn; }
          if (x.hi !== null) { spec.maxTs = stamps[x.hi % stamps.length]; spec.maxInclusive = x.hiIn; }
          if (x.after !== null) spec.afterSeq = x.after % (evs.length + 1);
          expect(viaRuns(s, spec), JSON.stringify(spec)).toEqual(viaScan(s, spec));
        }
      },
    ), { numRuns: 50, seed: 21 });
  });
});
