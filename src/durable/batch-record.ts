// What the write-ahead log holds for one ingest batch: the source and the events exactly as they will be
// stored — ids generated and missing timestamps filled in before logging, so a replay stores the same rows.

import { randomUUID } from 'node:crypto';
import { EpochDigits, formatTimestamp, parseTimestamp } from '../core/time.ts';

/**
 * Copies each event object with an `id` (generated when absent or null) and a `timestamp` (now when
 * absent or null; exact digits of a very large epoch number kept as ISO text). Anything else is left for
 * the store to reject, unchanged.
 */
export function stampBatch(events: readonly unknown[], nowUs: number): unknown[] {
  const now = formatTimestamp(nowUs);
  return events.map((e) => {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return e;
    // Spread defines own data properties, so keys such as `__proto__` stay data.
    const o: Record<string, unknown> = { ...(e as Record<string, unknown>) };
    if (o.id === undefined || o.id === null) o.id = randomUUID();
    if (o.timestamp === undefined || o.timestamp === null) o.timestamp = now;
    else if (o.timestamp instanceof EpochDigits) {
      const us = parseTimestamp(o.timestamp);
      if (us !== null) o.timestamp = formatTimestamp(us);
    }
    return o;
  });
}

export function encodeBatch(source: string, events: readonly unknown[]): Buffer {
  return Buffer.from(JSON.stringify({ s: source, e: events }), 'utf8');
}

export function decodeBatch(payload: Buffer): { source: string; events: unknown[] } {
  const v = JSON.parse(payload.toString('utf8')) as { s?: unknown; e?: unknown };
  if (typeof v.s !== 'string' || !Array.isArray(v.e)) throw new Error('a batch record without a source or events');
  return { source: v.s, events: v.e };
}

/** A raw body record: the body's own bytes, its format, the fill-in time and the id seed it was stored with. */
export interface RawBatch {
  source: string;
  ndjson: boolean;
  fillUs: number;
  idSeed: Buffer;
  body: Buffer;
}

/** One JSON header line, then the body bytes as they came (no re-serialising of the events). */
export function encodeRawBatch(b: RawBatch): Buffer {
  return Buffer.concat(rawBatchParts(b));
}

/** The same record as parts (the header line, then the body itself, not copied): for a gathered write. */
export function rawBatchParts(b: RawBatch): Buffer[] {
  return [rawBatchHead(b), b.body];
}

/** The record's header line (known before the body is transformed: its CRC-32 seeds the body's on the transform thread). */
export function rawBatchHead(b: Omit<RawBatch, 'body'>): Buffer {
  const head = JSON.stringify({ s: b.source, nd: b.ndjson ? 1 : 0, f: b.fillUs, seed: b.idSeed.toString('hex') });
  return Buffer.from(head + '\n', 'utf8');
}

export function decodeRawBatch(payload: Buffer): RawBatch {
  const nl = payload.indexOf(0x0a);
  if (nl < 0) throw new Error('a raw batch record without a header line');
  const h = JSON.parse(payload.toString('utf8', 0, nl)) as { s?: unknown; nd?: unknown; f?: unknown; seed?: unknown };
  if (typeof h.s !== 'string' || typeof h.f !== 'number' || typeof h.seed !== 'string' || !/^[0-9a-f]{32}$/.test(h.seed)) throw new Error('a raw batch record with a bad header');
  return { source: h.s, ndjson: h.nd === 1, fillUs: h.f, idSeed: Buffer.from(h.seed, 'hex'), body: payload.subarray(nl + 1) };
}
