// Child process: growth of resident memory while ringql's store loads a data file, per NDJSON byte
// (SPEC §10: without the peer in the process). Prints one JSON line. Run with --expose-gc.
//   node --expose-gc --import tsx bench/memory-child.ts <ndjson-file> <events>

import { statSync } from 'node:fs';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import { END_US, readBatches } from './data.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const path = process.argv[2]!;
const events = Number(process.argv[3]);
gc();
const before = process.memoryUsage().rss;
const store = new Store(defaultStoreConfig({ RINGQL_MAX_ROWS_PER_SOURCE: String(Math.max(10_000_000, events)), RINGQL_MAX_BYTES_PER_SOURCE: String(64 * 2 ** 30) }));
const src = store.source('edge.logs.prod')!;
let peak = before;
for await (const batch of readBatches(path, 2000)) {
  src.ingest(batch, END_US);
  peak = Math.max(peak, process.memoryUsage().rss);
}
gc();
gc();
const after = process.memoryUsage();
const bytes = statSync(path).size;
console.log(JSON.stringify({ events: src.rowCount, ndjsonBytes: bytes, rssGrowth: after.rss - before, peakGrowth: peak - before, heapUsed: after.heapUsed, external: after.external }));
