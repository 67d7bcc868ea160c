// The write-ahead log's checksum of a raw ingest body computed on the transform thread (issue 16): the
// CRC-32 the thread answers is the record payload's (header line, then body) for lent, shared and
// declined bodies alike, and a record framed with it is byte-identical to one checksummed here.

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransformThread, type BodyCrc } from '../../src/store/transform-thread.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { rawBatchHead, rawBatchParts } from '../../src/durable/batch-record.ts';
import { RECORD_RAW_BATCH, readRecord } from '../../src/durable/record-frame.ts';
import { Wal, listWalFiles } from '../../src/durable/wal.ts';

let thread: TransformThread;
beforeAll(async () => { thread = await TransformThread.start(); });
afterAll(async () => { await thread.close(); });

const NOW = Date.UTC(2025, 0, 15, 12) * 1000;
const store = new Store(defaultStoreConfig({ RINGQL_RETENTION_HOURS: '87600' }));
const source = store.source('edge.logs.prod')!;

function body(n: number): string {
  return JSON.stringify({ batch: Array.from({ length: n }, (_, i) => ({ project: 'p', event_message: `m${i} ${'é'.repeat(i % 50)}`, timestamp: NOW - i })) });
}

/** The thread's CRC for `bytes` (given as `kind`), and the one computed here over header line + body. */
async function both(bytes: Buffer, kind: 'lent' | 'shared' | 'copied'): Promise<{ thread: number | null; here: number; answer: unknown }> {
  let b: Buffer;
  if (kind === 'shared') { b = Buffer.from(new SharedArrayBuffer(bytes.length)); bytes.copy(b); }
  else if (kind === 'lent') { b = Buffer.allocUnsafeSlow(bytes.length); bytes.copy(b); }
  else b = bytes;
  const seed = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  const req = source.transformRequest(b, false, NOW, seed);
  const head = rawBatchHead({ source: 'edge.logs.prod', ndjson: false, fillUs: NOW, idSeed: seed });
  const crc: BodyCrc = { seed: crc32(head), value: null };
  const answer = await thread.transform(req, kind === 'lent', crc);
  // A lent body comes back as another Buffer: the checksum is of the bytes that came back.
  expect(req.body.equals(bytes)).toBe(true);
  return { thread: crc.value, here: crc32(Buffer.concat([head, bytes])), answer };
}

describe('a raw body checksummed on the transform thread', () => {
  it('lent, in shared memory, or copied: the thread answers the CRC-32 of header line + body', async () => {
    for (const kind of ['lent', 'shared', 'copied'] as const) {
      const r = await both(Buffer.from(body(700)), kind);
      expect(typeof r.answer).toBe('object');
      expect(r.thread).toBe(r.here);
    }
  });

  it('a body the addon declines still gets its CRC (the log takes it after the reference path does)', async () => {
    const r = await both(Buffer.from('{"batch":[{"project":"p"}, 17]}'), 'lent');
    expect(typeof r.answer).toBe('string');
    expect(r.thread).toBe(r.here);
  });

  it('a record framed with the thread\'s CRC is byte-identical to one checksummed here, and reads back', async () => {
    const bytes = Buffer.from(body(300));
    const seed = Buffer.alloc(16, 7);
    const raw = { source: 'edge.logs.prod', ndjson: false, fillUs: NOW, idSeed: seed, body: bytes };
    const crc: BodyCrc = { seed: crc32(rawBatchHead(raw)), value: null };
    await thread.transform(source.transformRequest(Buffer.from(bytes), false, NOW, seed), false, crc);
    const files: Buffer[] = [];
    for (const given of [undefined, crc.value!]) {
      const dir = mkdtempSync(join(tmpdir(), 'ringql-body-crc-'));
      const wal = Wal.open({ dir, fsync: 'always', fsyncMs: 100 }, []);
      wal.appendSync(RECORD_RAW_BATCH, rawBatchParts(raw), NOW, given);
      await wal.close();
      files.push(readFileSync(listWalFiles(dir)[0]!.path));
    }
    expect(files[1]!.equals(files[0]!)).toBe(true);
    const rec = readRecord(files[1]!, 0);
    expect(rec.kind).toBe('record');
  });
});
