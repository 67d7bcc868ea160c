// Memory follows retention and capacity, not the amount ever ingested or the variety of requests:
// capacity eviction, hot dictionaries rebuilt after eviction, bounded caches.

import { describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { querySql } from '../../src/endpoints/query-sql.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { compileRegex, regexCacheSize } from '../../src/core/regex.ts';

const NOW = Date.UTC(2025, 0, 15, 12) * 1000;
const edge = (i: number) => ({ id: `e${i}`, timestamp: NOW - (100_000 - i) * 1000, project: `p${i % 7}`, metadata: { request: { url: `https://p${i % 7}.api.example.com/rest/v1/t?id=${i}`, path: `/rest/v1/t${i % 13}`, method: 'GET' } } });

describe('memory bounds', () => {
  it('ingesting far beyond capacity keeps the newest rows, and hot dictionaries shrink with them', () => {
    const store = new Store(defaultStoreConfig({ RINGQL_MAX_ROWS_PER_SOURCE: '5000' }));
    const src = store.source('edge.logs.prod')!;
    let maxDict = 0;
    for (let b = 0; b < 100; b++) {
      src.ingest(Array.from({ length: 1000 }, (_, k) => edge(b * 1000 + k)), NOW);
      maxDict = Math.max(maxDict, src.hotDict('metadata.request.url').length);
      expect(src.stats().physicalRows).toBeLessThanOrEqual(5000 + 4096);
    }
    // 100,000 distinct URLs went in; the dictionary stays near the live rows.
    expect(maxDict).toBeLessThan(2 * (5000 + 4096) + 1024 + 1000);
    // The newest events are the ones kept, and hot-column reads still agree with the stored JSON.
    const rows = querySql(store, 'select r.url as u, t.id from `edge.logs.prod` t cross join unnest(t.metadata) m cross join unnest(m.request) r order by t.timestamp desc limit 3', { nowUs: NOW });
    expect(rows).toEqual([99_999, 99_998, 99_997].map((i) => ({ u: edge(i).metadata.request.url, id: `e${i}` })));
    const counted = querySql(store, "select count(*) as n from `edge.logs.prod` t left join unnest(t.metadata) m left join unnest(m.request) r where regexp_contains(r.url, 'p3')", { nowUs: NOW });
    const direct = querySql(store, "select count(*) as n from `edge.logs.prod` t where regexp_contains(to_json_string(t.metadata), 'p3\\\\.api')", { nowUs: NOW });
    expect(counted).toEqual(direct);
  });

  it('the result cache stays within its byte bound whatever the number of distinct parameters', async () => {
    const store = new Store(defaultStoreConfig({}));
    store.source('edge.logs.prod')!.ingest(Array.from({ length: 200 }, (_, i) => edge(i)), NOW);
    const service = await createQueryService({ store, stateDir: null, nowMicros: () => NOW, cache: { maxBytes: 20_000, sweepMs: 0 } });
    for (let i = 0; i < 2000; i++) {
      await service.run({ endpoint: 'usage.api-counts', params: new Map([['interval', 'daily'], ['project', `p${i}|x${i}`]]), redactHeader: false });
    }
    const stats = service.cache.stats();
    expect(stats.bytes).toBeLessThanOrEqual(20_000);
    expect(stats.entries).toBeLessThan(2000);
    service.close();
  });

  it('compiled regular expressions are cached in a bounded LRU', () => {
    for (let i = 0; i < 5000; i++) compileRegex(`p${i}-[a-z]+`);
    expect(regexCacheSize()).toBeLessThanOrEqual(512);
    // Still correct after thousands of distinct patterns.
    expect(compileRegex('p1-[a-z]+').test('xp1-abc')).toBe(true);
  });
});
