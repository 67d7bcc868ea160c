// Sealed segments keep rows as UTF-8 bytes in one slab per segment: through sealing, compaction
// merges and eviction purges, every row reads back exactly as normalised at ingest — its JSON, its
// extra columns and its bytes — whatever characters it holds.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SourceStore } from '../../src/store/source-store.ts';
import { sourceByNameOrId } from '../../src/store/sources.ts';
import { normalizeEvent } from '../../src/store/event.ts';
import type { StoreConfig } from '../../src/store/types.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';

const BASE = 1_736_000_000_000_000;
const edge = sourceByNameOrId('edge.logs.prod')!;
const config: StoreConfig = { retentionUs: 1e15, maxRows: 1e9, maxBytes: 1e12, segmentRows: 16, maxEventDepth: 16, maxStringBytes: 1 << 20 };
const NORMALISE = { maxEventDepth: 16, maxStringBytes: 1 << 20, nowUs: BASE, schema: null, hotPaths: [] };

const textArb = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('München', 'São Paulo', '日本語', '🚀 launch', 'ascii only'));

describe('row slabs', () => {
  it('read every row back exactly, through seals, merges and purges, in any arrival order', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ t: fc.integer({ min: 0, max: 500 }), msg: textArb, city: textArb, extraKey: fc.boolean() }), { minLength: 40, maxLength: 300, size: 'max' }),
      fc.integer({ min: 0, max: 400 }),
      (specs, cut) => {
        const store = new SourceStore(edge, config);
        const events = specs.map((s, i) => {
          const e: Record<string, unknown> = { id: `r${i}`, timestamp: BASE + s.t * 1_000_000, event_message: s.msg, project: 'p', metadata: { geo: { city: s.city } } };
          if (s.extraKey) e.tag = s.city;
          return e;
        });
        for (let i = 0; i < events.length; i += 37) store.ingest(events.slice(i, i + 37), BASE);
        // Retention moves past `cut` seconds: purges rewrite segments without their hidden rows.
        store.evict(BASE + cut * 1_000_000 + config.retentionUs);
        const expected = new Map(events.filter((e) => (e.timestamp as number) >= BASE + cut * 1_000_000)
          .map((e) => [e.id as string, normalizeEvent(e, edge, NORMALISE)] as const));
        let seen = 0;
        for (const b of store.scan({ order: 'any' })) {
          for (let i = 0; i < b.n; i++) {
            const rows = b.rows[i]!, r = b.idx[i]!;
            const json = rows.json(r);
            const want = expected.get((JSON.parse(json) as { id: string }).id);
            if (want === undefined || typeof want === 'string') throw new Error(`unexpected row ${json.slice(0, 80)}`);
            expect(json).toBe(want.json);
            expect(rows.extra(r)).toBe(want.extra);
            const bytes = rows.jsonBytes(r);
            expect(typeof bytes === 'string' ? bytes : bytes.toString('utf8')).toBe(want.json);
            seen++;
          }
        }
        expect(seen).toBe(expected.size);
      },
    ), { numRuns: 60, seed: 5 });
  });

  it.each([false, true])('seal the open segment by bytes as well as rows, so big events never grow one slab without bound (compress %s)', (compress) => {
    // A 16 MiB capacity makes segments of at most 1 MiB; 40 events of ~100 KB are ~4 MiB.
    const store = new SourceStore(edge, { ...config, segmentRows: 4096, maxBytes: 16 * 2 ** 20, compress });
    const big = 'x'.repeat(100_000);
    store.ingest(Array.from({ length: 40 }, (_, i) => ({ id: `b${i}`, timestamp: BASE + i, event_message: big, project: 'p' })), BASE);
    compressPendingNow(); // what a server does between requests
    const st = store.stats();
    expect(st.rows).toBe(40);
    expect(st.openRows).toBeLessThanOrEqual(11);
    // v1 segments stop at 1 MiB of slab; v2 ones hold ~1 KB of compressed blocks each once compressed.
    if (!compress) expect(st.segments).toBeGreaterThanOrEqual(3);
    else expect(st.bytes).toBeLessThan(1_000_000); // the open rows (≤ 11 × 100 KB raw) and a few KB sealed
    let seen = 0;
    for (const b of store.scan({ order: 'any' })) for (let i = 0; i < b.n; i++) { expect(b.rows[i]!.json(b.idx[i]!)).toContain(big); seen++; }
    expect(seen).toBe(40);
  });
});
