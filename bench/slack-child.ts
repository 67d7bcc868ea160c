// Loads one NDJSON file through the byte path (as the server does) and prints where resident memory
// lies at the end of the load, after gc() and after malloc_trim(0): smaps groups, V8 spaces, mallinfo2.

import { statSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import { compressPendingNow } from '../src/store/block-compressor.ts';
import { INGEST_ADDON } from '../src/store/native-ingest.ts';
import { END_US } from './data.ts';
import { ndjsonChunks } from './ndjson-chunks.ts';
import { smapsGroups } from './smaps.ts';

const path = process.argv[2];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !path) throw new Error('usage: node --expose-gc --import tsx bench/slack-child.ts <file.ndjson>');

function snapshot(store: Store): Record<string, unknown> {
  const m = process.memoryUsage();
  const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, { size: s.space_size, used: s.space_used_size, physical: s.physical_space_size }]));
  return { memoryUsage: m, counted: store.memoryStats().used_bytes, smaps: smapsGroups(), mallinfo: INGEST_ADDON.mallocInfo(), spaces };
}

gc();
const before = process.memoryUsage().rss;
const beforeSmaps = smapsGroups();
const store = new Store(defaultStoreConfig({ RINGQL_MAX_ROWS_PER_SOURCE: String(100_000_000), RINGQL_MAX_BYTES_PER_SOURCE: String(64 * 2 ** 30), RINGQL_MAX_MEMORY: '20G' }));
const src = store.source('edge.logs.prod')!;
const t = performance.now();
const cpu0 = process.cpuUsage();
for await (const chunk of ndjsonChunks(path)) {
  const r = src.ingestBytes(chunk, true, END_US);
  if (typeof r === 'string') throw new Error(`slack-child: the byte path declined a chunk: ${r}`);
}
const loadMs = performance.now() - t;
const cpu = process.cpuUsage(cpu0);
compressPendingNow();
const atEnd = snapshot(store);
gc();
gc();
const afterGc = snapshot(store);
const tTrim = performance.now();
const trimmed = INGEST_ADDON.mallocTrim();
const trimMs = performance.now() - tTrim;
const afterTrim = snapshot(store);
process.stdout.write(`${JSON.stringify({ events: src.rowCount, ndjson: statSync(path).size, before, beforeSmaps, loadMs, cpuMs: (cpu.user + cpu.system) / 1000, atEnd, afterGc, trimmed, trimMs, afterTrim })}\n`);
