// Transforms one chunk of an NDJSON file for the column-only load (column-load.ts): reads its byte range,
// cuts it into bodies of BODY_LINES lines and transforms each with the ingest addon, keeping no row bytes.

import { closeSync, openSync, readSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { runTransform } from '../store/byte-batch.ts';
import { allocBig } from '../store/big-buffer.ts';
import type { NativeBatch } from '../store/native-ingest.ts';
import { BODY_LINES } from './ndjson-load.ts';

/** One chunk to transform: bytes [start, end) of `file`, which begin a line and end one (or the file). */
export interface ColumnJob {
  id: number;
  file: string;
  start: number;
  end: number;
  projectPath: readonly string[];
  maxEventDepth: number;
  maxStringBytes: number;
  fillUs: number;
}

/** One body of a chunk: where it lies in the file, its line count, and the transform or the addon's reason to decline. */
export interface ColumnBody {
  start: number;
  end: number;
  lines: number;
  batch: NativeBatch | string;
}

export type ColumnAnswer = { id: number; bodies: ColumnBody[] } | { id: number; error: string };

/**
 * The one read buffer of this thread, reused chunk after chunk: a fresh 16 MB buffer per chunk cost its
 * page faults each time (reading 1 GB: ~0.33 → ~0.22 CPU s). The transform's outputs never point into it.
 * It is advised into huge pages before its first read: ~4,300 faults of 4 KiB become ~9 of 2 MiB (a fault
 * costs ~10 µs on the VMs of bench/INGEST.md round 15).
 */
let scratch = Buffer.alloc(0);

/** Bytes [start, end) of the file, read in one piece into the worker's read buffer (valid until the next read). */
function readRange(file: string, start: number, end: number): Buffer {
  if (scratch.length < end - start) scratch = allocBig(end - start + (end - start >> 4));
  const buf = scratch.subarray(0, end - start);
  const fd = openSync(file, 'r');
  try {
    for (let at = 0; at < buf.length;) {
      const got = readSync(fd, buf, at, buf.length - at, start + at);
      if (got === 0) throw new Error(`${file} ended at byte ${start + at}, before ${end} (did it change while loading?)`);
      at += got;
    }
  } finally {
    closeSync(fd);
  }
  return buf;
}

/**
 * The chunk's bodies (BODY_LINES lines each, the last one shorter), transformed in order; the byte views each
 * batch holds go into `transfer` (a worker posts them back without copying).
 */
export function transformChunk(job: ColumnJob, transfer: ArrayBuffer[]): ColumnBody[] {
  const buf = readRange(job.file, job.start, job.end);
  const out: ColumnBody[] = [];
  const take = (from: number, to: number, lines: number): void => {
    const batch = runTransform({
      body: buf.subarray(from, to), ndjson: true, maxEventDepth: job.maxEventDepth, maxStringBytes: job.maxStringBytes,
      fillUs: job.fillUs, projectPath: job.projectPath, hotPaths: [], idSeed: randomBytes(16), noRows: true,
    });
    if (typeof batch !== 'string') for (const v of [batch.meta, batch.strs, batch.strEnds, batch.descs, batch.descEnds]) if (v.byteLength > 0) transfer.push(v.buffer as ArrayBuffer);
    out.push({ start: job.start + from, end: job.start + to, lines, batch: typeof batch === 'string' ? batch : { ...batch, rows: Buffer.alloc(0) } });
  };
  let from = 0, lines = 0;
  for (let nl = buf.indexOf(0x0a); nl >= 0; nl = buf.indexOf(0x0a, nl + 1)) {
    if (++lines === BODY_LINES) { take(from, nl + 1, lines); from = nl + 1; lines = 0; }
  }
  if (from < buf.length) take(from, buf.length, lines + (buf[buf.length - 1] === 0x0a ? 0 : 1));
  return out;
}
