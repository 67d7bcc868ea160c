// Property tests of storage v2 (compressed sealed segments): sealing, block boundaries and
// out-of-order arrival across seals read back exactly what storage v1 reads; hot dictionaries that
// outgrow a narrow column stay right; fast paths decode only the blocks of the rows they return.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SourceStore } from '../../src/store/source-store.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { sourceByNameOrId } from '../../src/store/sources.ts';
import { DEFAULT_HOT_PATHS } from '../../src/store/hot-paths.ts';
import { blockCacheStats, clearBlockCache } from '../../src/store/block-cache.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { MAX_PENDING_BYTES, compressPendingNow, compressorStats } from '../../src/store/block-compressor.ts';
import type { ScanSpec, StoreConfig } from '../../src/store/types.ts';

const BASE = 1_736_000_000_000_000;
const SEC = 1_000_000;
const edge = sourceByNameOrId('edge.logs.prod')!;
const HOT = DEFAULT_HOT_PATHS['edge.logs.prod']!.map((p) => [...p]);
const config: StoreConfig = { retentionUs: 1e15, maxRows: 1e9, maxBytes: 1e12, segmentRows: 16, maxEventDepth: 16, maxStringBytes: 1 << 20 };

const textArb = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('München', '日本語', '🚀', 'x'.repeat(700)));

/** Everything a scan shows of each row, in scan order. */
function readAll(s: SourceStore, spec: ScanSpec): string[] {
  const out: string[] = [];
  for (const b of s.scan({ ...spec, hot: s.hotKeys.slice() })) {
    for (let i = 0; i < b.n; i++) {
      const rows = b.rows[i]!, r = b.idx[i]!;
      const hot = s.hotKeys.map((k) => String(s.hotDict(k).get(b.hot.get(k)![i]!)));
      const bytes = rows.jsonBytes(r);
      out.push(`${b.ts[i]} ${b.seq[i]} ${b.project[i]} ${rows.json(r)} ${rows.extra(r)} ${typeof bytes === 'string' ? bytes : bytes.toString('utf8')} ${hot.join('|')}`);
    }
  }
  return out;
}

describe('storage v2', () => {
  it('reads back what v1 reads, across seals, block boundaries, merges, purges and any arrival order', () => {
    fc.assert(fc.property(
      fc.array(fc.record({ t: fc.integer({ min: 0, max: 300 }), p: fc.constantFrom('a', 'b', 'c', null), msg: textArb, path: fc.constantFrom('/x', '/y', '/z/1'), extra: fc.boolean() }), { minLength: 1, maxLength: 160 }),
      fc.integer({ min: 2, max: 40 }), fc.integer({ min: 40, max: 3000 }), fc.integer({ min: 1, max: 50 }), fc.integer({ min: 0, max: 320 }), fc.array(fc.boolean(), { minLength: 1 }),
      (specs, segmentRows, blockBytes, batch, cut, compressAfter) => {
        const events = specs.map((s, i) => {
          const e: Record<string, unknown> = { id: `r${i}`, timestamp: BASE + s.t * SEC, event_message: s.msg, metadata: { request: { path: s.path, url: `https://h${s.path}`, method: 'GET' } } };
          if (s.p !== null) e.project = s.p;
          if (s.extra) e.tag = s.msg;
          return e;
        });
        const v1 = new SourceStore(edge, { ...config, segmentRows, compress: false }, HOT);
        const v2 = new SourceStore(edge, { ...config, segmentRows, compress: true, blockBytes }, HOT);
        for (let i = 0, k = 0; i < events.length; i += batch, k++) {
          for (const s of [v1, v2]) s.ingest(structuredClone(events.slice(i, i + batch)), BASE);
          // Blocks compress later, between requests: any mix of compressed and raw blocks reads the same.
          if (compressAfter[k % compressAfter.length]!) compressPendingNow();
        }
        for (const s of [v1, v2]) s.evict(BASE + cut * SEC + config.retentionUs);
        for (const spec of [{ order: 'desc' }, { order: 'asc', project: 'a' }, { order: 'any' }, { order: 'desc', project: null, minTs: BASE + 100 * SEC }] as ScanSpec[]) {
          expect(readAll(v2, spec)).toEqual(readAll(v1, spec));
        }
        expect(v2.stats().rows).toBe(events.filter((e) => (e.timestamp as number) >= BASE + cut * SEC).length);
      },
    ), { numRuns: 40, seed: 15 });
  });

  it('keeps hot ids right when a dictionary grows to thousands of values and is compacted', () => {
    const s = new SourceStore(edge, { ...config, segmentRows: 64, retentionUs: 1000 * SEC }, HOT);
    const ev = (i: number, t: number): Record<string, unknown> => ({ id: `e${i}`, timestamp: BASE + t * SEC, project: 'p', metadata: { request: { url: `https://u/${i}`, path: `/${i % 300}`, method: 'GET' } } });
    // 6000 distinct urls (ids past 255), then most are evicted and the dictionary is compacted in place.
    for (let i = 0; i < 6000; i += 500) s.ingest(Array.from({ length: 500 }, (_, k) => ev(i + k, (i + k) / 10)), BASE + 1000 * SEC);
    s.evict(BASE + 1500 * SEC); // keeps t >= 500: ids 5000..5999
    s.ingest(Array.from({ length: 300 }, (_, k) => ev(9000 + k, 700 + k / 10)), BASE + 1500 * SEC);
    let n = 0;
    for (const b of s.scan({ order: 'any', hot: ['metadata.request.url', 'metadata.request.path'] })) {
      for (let i = 0; i < b.n; i++) {
        const row = JSON.parse(b.rows[i]!.json(b.idx[i]!)) as { metadata: [{ request: [{ url: string; path: string }] }] };
        expect(s.hotDict('metadata.request.url').get(b.hot.get('metadata.request.url')![i]!)).toBe(row.metadata[0].request[0].url);
        expect(s.hotDict('metadata.request.path').get(b.hot.get('metadata.request.path')![i]!)).toBe(row.metadata[0].request[0].path);
        n++;
      }
    }
    expect(n).toBe(1300);
    expect(s.hotDict('metadata.request.url').length).toBeLessThan(4000);
  });

  it('compresses sealed blocks between turns of the event loop, with a bounded raw backlog', async () => {
    compressPendingNow();
    const s = new SourceStore(edge, { ...config, segmentRows: 512 }, HOT);
    const pad = 'abcdefghij'.repeat(300);
    for (let i = 0; i < 8000; i += 500) s.ingest(Array.from({ length: 500 }, (_, k) => ({ id: `e${i + k}`, timestamp: BASE + i + k, project: 'p', event_message: `${i + k} ${pad}` })), BASE);
    // ~24 MiB sealed as raw blocks within one turn; none compressed yet.
    const before = compressorStats();
    expect(before.pendingBytes).toBeGreaterThan(MAX_PENDING_BYTES);
    const raw = s.stats().bytes;
    await new Promise((r) => setImmediate(r));
    expect(compressorStats().pendingBytes).toBeLessThanOrEqual(MAX_PENDING_BYTES);
    for (let i = 0; i < 100 && compressorStats().pending > 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(compressorStats().pending).toBe(0);
    expect(s.stats().bytes).toBeLessThan(raw / 10);
  });

  it('fast paths decode only the blocks of the rows they return', async () => {
    const NOW = BASE + 86_400 * SEC;
    const store = new Store({ ...defaultStoreConfig({}), segmentRows: 4096, blockBytes: 4096 });
    const service = await createQueryService({ store, stateDir: null, nowMicros: () => NOW, cache: { sweepMs: 0 } });
    const events = Array.from({ length: 20_000 }, (_, i) => ({ id: `e${i}`, timestamp: NOW - (20_000 - i) * 2 * SEC, project: i % 2 === 0 ? 'big' : `p${i % 50}`, event_message: `GET /rest/v1/t${i % 97} ${'pad'.repeat(20)}`, metadata: { request: { url: `https://big.supabase.co/rest/v1/t${i % 97}`, path: `/rest/v1/t${i % 97}`, method: 'GET' } } }));
    for (let i = 0; i < events.length; i += 1000) service.ingest('edge.logs.prod', events.slice(i, i + 1000));
    compressPendingNow();
    clearBlockCache();
    const d0 = blockCacheStats().decodes;
    const usage = await service.run({ endpoint: 'usage.api-counts', params: new Map([['interval', 'hourly'], ['project', 'big']]), redactHeader: false });
    expect((JSON.parse(usage.body.toString()) as { result: unknown[] }).result.length).toBeGreaterThan(0);
    expect(blockCacheStats().decodes - d0).toBe(0);
    const d1 = blockCacheStats().decodes;
    const logs = await service.run({ endpoint: 'logs.all', params: new Map([['project', 'big']]), redactHeader: false });
    const rows = (JSON.parse(logs.body.toString()) as { result: unknown[] }).result.length;
    expect(rows).toBeGreaterThan(0);
    // ~180-byte rows in 4 KiB blocks: the newest `rows` rows of one project span a few blocks, not the ~900 held.
    expect(blockCacheStats().decodes - d1).toBeLessThanOrEqual(Math.ceil((rows * 200) / 4096) + 2);
    service.close();
  });
});
