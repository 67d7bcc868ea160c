// Loads one NDJSON file into a fresh store (edge.logs.prod) and prints the store-counted bytes per event
// broken down by structure: sealed segment columns, row blocks and their tables, open segment, dictionaries.

import { statSync } from 'node:fs';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import { END_US, readBatches } from './data.ts';
import { compressPendingNow } from '../src/store/block-compressor.ts';
import { blockCacheStats } from '../src/store/block-cache.ts';
import { arenaStats } from '../src/store/frame-arena.ts';
import type { Segment } from '../src/store/segment.ts';
import type { SegmentSet } from '../src/store/segment-set.ts';
import type { HotDictionaries } from '../src/store/hot-dictionaries.ts';
import { BlockRows, type Block } from '../src/store/row-blocks.ts';

const [path] = process.argv.slice(2);
if (!path) throw new Error('usage: node --import tsx bench/row-bytes-breakdown.ts <file.ndjson>');
const store = new Store({ ...defaultStoreConfig({ RINGQL_MAX_ROWS_PER_SOURCE: String(100_000_000), RINGQL_MAX_BYTES_PER_SOURCE: String(64 * 2 ** 30), RINGQL_MAX_MEMORY: '20G' }), compress: true });
const src = store.source('edge.logs.prod')!;
for await (const batch of readBatches(path, 500)) src.ingest(batch, END_US);
compressPendingNow();
const ndjson = statSync(path).size, events = src.rowCount;
// Internals read for the breakdown only (private fields of SourceStore).
const inner = src as unknown as { rows: SegmentSet; hot: HotDictionaries };
const set = inner.rows;
const parts: Record<string, number> = {};
const add = (k: string, b: number): void => { parts[k] = (parts[k] ?? 0) + b; };
const seen = new Set<Block>();
let sealedRows = 0;
for (const seg of set.segments as Segment[]) {
  sealedRows += seg.n;
  const s = seg as unknown as Record<string, { byteLength: number } | undefined>;
  for (const k of ['ts', 'seq', 'pid', 'byTs', 'shape']) add(`col.${k}`, s[k]?.byteLength ?? 0);
  const tsCol = s['tsCol'] as unknown as { bytes?: number } | undefined;
  if (tsCol?.bytes !== undefined) add('col.ts', tsCol.bytes);
  seg.hot.forEach((h, i) => add(`col.hot${i} (${h.constructor.name})`, h.byteLength));
  add('col.runs+fixed', seg.runs.size * 64 + 256);
  const rows = seg.rows as BlockRows;
  add('rows.runs (block, slot)', rows.tableBytes);
  for (const b of rows.blocks) {
    if (seen.has(b)) { add('rows.shared-block-recount', b.residentBytes); continue; }
    seen.add(b);
    add(b.comp !== null ? 'rows.compressed' : 'rows.raw', b.comp?.length ?? b.raw!.length);
    add('rows.block.starts', b.starts.byteLength);
    add('rows.block.extraLen', b.extraLen.byteLength);
    add('rows.block.object', 96);
    add('rows.rawLen', b.rawLen);
  }
}
add('open', set.open.residentBytes);
add('hot dictionaries', inner.hot.bytes);
add('codec', set.codec?.residentBytes ?? 0);
const ms = store.memoryStats();
add('decoded block cache', blockCacheStats().bytes);
// Dead frames and alignment in the chunks blocks are packed into (frame-arena.ts), which the store counts too.
add('rows.chunk slack', arenaStats().slackBytes);
const counted = ms.used_bytes;
const out: Record<string, string> = {};
let sum = 0;
for (const [k, v] of Object.entries(parts)) { out[k] = (v / events).toFixed(2); if (k !== 'rows.rawLen') sum += v; }
process.stdout.write(`${JSON.stringify({ events, sealedRows, openRows: set.open.n, segments: set.segments.length, ndjsonPerEvent: (ndjson / events).toFixed(1),
  countedRatio: (counted / ndjson).toFixed(4), countedPerEvent: (counted / events).toFixed(2), sumPerEvent: (sum / events).toFixed(2), bytesPerEvent: out,
  compressedOverRaw: ((parts['rows.compressed'] ?? 0) / (parts['rows.rawLen'] ?? 1)).toFixed(4), hotValues: src.hotKeys.map((k) => `${k}=${src.hotDict(k).length}`), sources: ms.sources }, null, 1)}\n`);
