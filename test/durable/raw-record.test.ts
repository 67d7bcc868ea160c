// The write-ahead log takes an ingest body's own bytes (RECORD_RAW_BATCH) instead of re-serialising the
// events; a restart replays it with its fill-in time and id seed into byte-identical rows.

import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { recoverStore } from '../../src/durable/durability.ts';
import { decodeRawBatch, encodeRawBatch } from '../../src/durable/batch-record.ts';
import { nowMicros } from '../../src/core/time.ts';
import type { OpenSegment } from '../../src/store/open-segment.ts';

async function durable(stateDir: string) {
  const store = new Store(defaultStoreConfig({}));
  const service = await createQueryService({ store, stateDir, cache: { sweepMs: 0 } });
  const recovered = recoverStore(store, stateDir, { fsync: 'always', fsyncMs: 100 }, { discardCorrupt: false, nowUs: nowMicros, log: () => {} });
  service.attachWal(recovered.wal, recovered.report);
  const rows = (): string[] => {
    // The open segment is private; read it to compare stored bytes exactly.
    const open = (store.source('edge.logs.prod') as unknown as { rows: { open: OpenSegment } }).rows.open;
    return Array.from({ length: open.n }, (_, r) => open.json(r) + (open.extra(r) ?? ''));
  };
  const stop = async (): Promise<void> => { await recovered.wal.close(); service.close(); };
  return { service, recovered, rows, stop };
}

describe('raw batch records', () => {
  it('encode and decode round-trip', () => {
    const b = { source: 'edge.logs.prod', ndjson: true, fillUs: 1736935200123456, idSeed: Buffer.alloc(16, 7), body: Buffer.from('{"a":"\\n"}\n{"b":1}') };
    expect(decodeRawBatch(encodeRawBatch(b))).toEqual(b);
  });

  it('the log holds the body verbatim; a restart stores the same rows (generated ids and fill-in times too)', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'ringql-raw-'));
    const a = await durable(stateDir);
    const body = Buffer.from('[{"event_message":"no id, no timestamp","project":"p","metadata":{"n":[1.50,2e3]}},{"id":"x","message":"m","extra":{"k":true}}]');
    const r = await a.service.ingestBody('edge.logs.prod', body, false, () => { throw new Error('the byte path declined a plain body'); });
    expect(r).toEqual({ stored: 2, dropped: 0, source: 'edge.logs.prod' });
    const before = a.rows();
    expect(before[0]).toMatch(/^\{"id":"[0-9a-f-]{36}","timestamp":\d+,"event_message":"no id, no timestamp","metadata":\[\{"n":\[1\.5,2000\]\}\]\}\{"project":"p"\}$/);
    await a.stop();
    const files = readdirSync(join(stateDir, 'wal'));
    expect(files.some((f) => readFileSync(join(stateDir, 'wal', f)).includes(body))).toBe(true);

    const b = await durable(stateDir);
    expect(b.recovered.report.events).toBe(2);
    expect(b.rows()).toEqual(before);
    await b.stop();
  });
});
