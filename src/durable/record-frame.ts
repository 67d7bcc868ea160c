// The write-ahead log's record framing (SPEC §12): magic, version, length and a CRC-32 of the payload
// before every record, so recovery can tell a whole record from a torn or corrupt one.

import { crc32 } from '../core/crc32.ts';

/** Bytes before each payload: magic "RQ" (2), version (1), type (1), payload length (4), CRC-32 (4). */
export const HEADER_BYTES = 12;
const MAGIC0 = 0x52, MAGIC1 = 0x51, VERSION = 1;
/** A payload may not claim more than this (a torn length field must not make recovery allocate gigabytes). */
export const MAX_PAYLOAD_BYTES = 1024 * 1024 * 1024;

export const RECORD_BATCH = 1;
/** A raw ingest body as the addon took it, with what makes its replay store the same rows (batch-record.ts). */
export const RECORD_RAW_BATCH = 2;

/**
 * The 12-byte header of a record whose payload is `parts` concatenated (written with writev, so a big
 * payload such as a raw request body is never copied into one buffer first).
 */
export function frameHeader(type: number, parts: readonly Buffer[]): Buffer {
  let len = 0;
  let crc = 0;
  for (const p of parts) {
    len += p.length;
    crc = crc32(p, crc);
  }
  return frameHeaderOf(type, len, crc);
}

/** The 12-byte header of a record whose payload's length is `len` and CRC-32 is `crc` (computed in pieces by the caller). */
export function frameHeaderOf(type: number, len: number, crc: number): Buffer {
  const out = Buffer.allocUnsafe(HEADER_BYTES);
  out[0] = MAGIC0;
  out[1] = MAGIC1;
  out[2] = VERSION;
  out[3] = type;
  out.writeUInt32LE(len, 4);
  out.writeUInt32LE(crc, 8);
  return out;
}

/** One framed record: header + payload, ready to append. */
export function frame(type: number, payload: Buffer): Buffer {
  const out = Buffer.allocUnsafe(HEADER_BYTES + payload.length);
  out[0] = MAGIC0;
  out[1] = MAGIC1;
  out[2] = VERSION;
  out[3] = type;
  out.writeUInt32LE(payload.length, 4);
  out.writeUInt32LE(crc32(payload), 8);
  payload.copy(out, HEADER_BYTES);
  return out;
}

export type ReadResult =
  | { kind: 'record'; type: number; payload: Buffer; next: number }
  /** The bytes from `at` end before a whole record does (a write cut short by a crash). */
  | { kind: 'torn'; at: number }
  /** A whole-looking record whose header or checksum is wrong. */
  | { kind: 'corrupt'; at: number; why: string }
  | { kind: 'end' };

/** Reads the record at `at` of `buf`. */
export function readRecord(buf: Buffer, at: number): ReadResult {
  if (at === buf.length) return { kind: 'end' };
  if (buf.length - at < HEADER_BYTES) return { kind: 'torn', at };
  if (buf[at] !== MAGIC0 || buf[at + 1] !== MAGIC1) return { kind: 'corrupt', at, why: 'no record header (bad magic bytes)' };
  if (buf[at + 2] !== VERSION) return { kind: 'corrupt', at, why: `unknown record version ${buf[at + 2]}` };
  const len = buf.readUInt32LE(at + 4);
  if (len > MAX_PAYLOAD_BYTES) return { kind: 'corrupt', at, why: `record length ${len} is impossible` };
  const end = at + HEADER_BYTES + len;
  if (end > buf.length) return { kind: 'torn', at };
  const payload = buf.subarray(at + HEADER_BYTES, end);
  if (crc32(payload) !== buf.readUInt32LE(at + 8)) return { kind: 'corrupt', at, why: 'checksum mismatch' };
  return { kind: 'record', type: buf[at + 3]!, payload, next: end };
}
