// Loads one NDJSON file into a fresh store (edge.logs.prod) and prints resident growth per NDJSON
// byte, the store's own count, and how long seals took (the longest ingest batch holds one or more).

import { statSync } from 'node:fs';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import { END_US, readBatches } from './data.ts';
import { compressPendingNow } from '../src/store/block-compressor.ts';
import { TRIM_DELAY_MS } from '../src/store/allocator-trim.ts';

const [path, compressArg] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !path) throw new Error('usage: node --expose-gc --import tsx bench/memory-child.ts <file.ndjson> [v1]');
gc();
const before = process.memoryUsage().rss;
const store = new Store({ ...defaultStoreConfig({ RINGQL_MAX_ROWS_PER_SOURCE: String(100_000_000), RINGQL_MAX_BYTES_PER_SOURCE: String(64 * 2 ** 30), RINGQL_MAX_MEMORY: '20G' }), compress: compressArg !== 'v1' });
const src = store.source('edge.logs.prod')!;
const batchMs: number[] = [];
const t0 = performance.now();
for await (const batch of readBatches(path, 500)) {
  const t = performance.now();
  src.ingest(batch, END_US);
  batchMs.push(performance.now() - t);
}
const loadMs = performance.now() - t0;
// Blocks sealed last are compressed between requests in a server; settle them before measuring.
compressPendingNow();
gc();
// Measured once the trim a server makes TRIM_DELAY_MS after its last seal has run (as bench/engine-bench.ts).
await new Promise((r) => setTimeout(r, TRIM_DELAY_MS + 200));
gc();
gc();
const after = process.memoryUsage();
const ndjson = statSync(path).size;
batchMs.sort((a, b) => a - b);
const q = (p: number): number => batchMs[Math.min(batchMs.length - 1, Math.floor(p * batchMs.length))]!;
process.stdout.write(`${JSON.stringify({
  events: src.rowCount, ndjson, rssGrowth: after.rss - before, rssRatio: (after.rss - before) / ndjson, heapTotal: after.heapTotal, arrayBuffers: after.arrayBuffers,
  storeRatio: store.memoryStats().used_bytes / ndjson, heapUsed: after.heapUsed, external: after.external,
  budget: store.memoryStats(), source: src.stats(), hotValues: src.hotKeys.map((k) => src.hotDict(k).length),
  loadMs, batchMs: { p50: q(0.5), p99: q(0.99), max: q(1) },
})}\n`);
