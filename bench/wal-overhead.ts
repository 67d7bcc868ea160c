// `npx tsx bench/wal-overhead.ts [events]`: in-process ingest of demo edge events as 500-event NDJSON
// bodies through the byte path, with the write-ahead log (interval and always) and without, in rounds in
// one process; prints events/s and the ratio (issue 17's target: interval ≥ 0.8 of no log).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import { Wal, type FsyncMode } from '../src/durable/wal.ts';
import { rawBatchParts } from '../src/durable/batch-record.ts';
import { RECORD_RAW_BATCH } from '../src/durable/record-frame.ts';
import { END_US, edgeData, readLineGroups } from './data.ts';
import { progress } from './stats.ts';

const events = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 200_000);
const data = edgeData(events);
const bodies: Buffer[] = [];
for await (const lines of readLineGroups(data.path, 500, events)) bodies.push(Buffer.from(lines.join('\n')));

async function round(mode: FsyncMode | 'none'): Promise<number> {
  const store = new Store({ ...defaultStoreConfig({ RINGQL_MAX_ROWS_PER_SOURCE: String(100_000_000), RINGQL_MAX_BYTES_PER_SOURCE: String(64 * 2 ** 30), RINGQL_MAX_MEMORY: '20G' }) });
  const src = store.source('edge.logs.prod')!;
  const dir = mkdtempSync(join(tmpdir(), 'ringql-wal-bench-'));
  const wal = mode === 'none' ? null : Wal.open({ dir, fsync: mode, fsyncMs: 100 }, []);
  const t0 = performance.now();
  let n = 0;
  for (const body of bodies) {
    const idSeed = randomBytes(16);
    const r = src.ingestBytes(body, true, END_US, wal ? {
      fillUs: END_US, idSeed,
      beforeCommit: (maxTs) => wal.appendSync(RECORD_RAW_BATCH, rawBatchParts({ source: 'edge.logs.prod', ndjson: true, fillUs: END_US, idSeed, body }), maxTs),
    } : { idSeed });
    if (typeof r === 'string') throw new Error(`the byte path declined a body: ${r}`);
    n += r.stored;
    if (wal) await wal.durable();
  }
  const s = (performance.now() - t0) / 1000;
  await wal?.close();
  rmSync(dir, { recursive: true, force: true });
  return n / s;
}

// none and interval alternate; the fsync-bound `always` rounds run last, so the writeback they force does
// not land inside the pairs being compared.
const rates: Record<string, number[]> = { none: [], interval: [], always: [] };
for (let i = 0; i < 3; i++) {
  for (const mode of ['none', 'interval'] as const) {
    progress(`wal overhead: round ${i + 1}, ${mode}`);
    rates[mode]!.push(await round(mode));
  }
}
for (let i = 0; i < 3; i++) {
  progress(`wal overhead: round ${i + 1}, always`);
  rates.always!.push(await round('always'));
}
const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const none = med(rates.none!);
process.stdout.write([
  '| log | events/s (median of 3) | ÷ no log |', '|---|---|---|',
  ...(['none', 'interval', 'always'] as const).map((m) => `| ${m} | ${Math.round(med(rates[m]!)).toLocaleString()} | ${(med(rates[m]!) / none).toFixed(2)} |`),
].join('\n') + '\n');
