// One phase of the restart bench (bench/restart-run.ts) in its own process: `load` ingests an NDJSON file
// into a fresh store and writes a checkpoint; `restore` starts from that state directory as a server
// would (checkpoint, then the log tail) and prints how long it took, the MB/s and what the disk holds.

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import { Wal } from '../src/durable/wal.ts';
import { Checkpointer } from '../src/durable/checkpointer.ts';
import { checkpointSources, recoverStore } from '../src/durable/durability.ts';
import { compressPendingNow } from '../src/store/block-compressor.ts';
import { END_US, readBatches } from './data.ts';

const [phase, path, stateDir] = process.argv.slice(2);
if (!phase || !path || !stateDir) throw new Error('usage: bench/restart-child.ts load|restore <file.ndjson> <state dir>');
const config = () => ({ ...defaultStoreConfig({ RINGQL_MAX_ROWS_PER_SOURCE: String(100_000_000), RINGQL_MAX_BYTES_PER_SOURCE: String(64 * 2 ** 30), RINGQL_MAX_MEMORY: '20G' }) });
const dirBytes = (d: string): number => readdirSync(d).reduce((n, f) => n + statSync(join(d, f)).size, 0);

if (phase === 'load') {
  const store = new Store(config());
  const src = store.source('edge.logs.prod')!;
  const t0 = performance.now();
  for await (const batch of readBatches(path, 500)) src.ingest(batch, END_US);
  compressPendingNow();
  const loadMs = performance.now() - t0;
  const wal = Wal.open({ dir: join(stateDir, 'wal'), fsync: 'interval', fsyncMs: 100 }, []);
  const t1 = performance.now();
  const r = await new Checkpointer(join(stateDir, 'checkpoint'), wal).checkpoint(checkpointSources(store));
  const ckMs = performance.now() - t1;
  await wal.close();
  process.stdout.write(`${JSON.stringify({ events: src.rowCount, loadMs, ckMs, parts: r?.partsWritten ?? 0, diskBytes: dirBytes(join(stateDir, 'checkpoint')), ndjson: statSync(path).size })}\n`);
} else {
  const t0 = performance.now();
  const store = new Store(config());
  const rec = recoverStore(store, stateDir, { fsync: 'interval', fsyncMs: 100 }, { discardCorrupt: false, nowUs: () => END_US, log: () => {} });
  const ms = performance.now() - t0;
  await rec.wal.close();
  process.stdout.write(`${JSON.stringify({ events: store.source('edge.logs.prod')!.rowCount, ms, bytes: rec.fromCheckpoint?.bytes ?? 0, rssMiB: process.memoryUsage().rss / 2 ** 20 })}\n`);
}
