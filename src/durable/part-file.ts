// A checkpoint part file: one immutable piece of a source's state (a sealed segment, or a snapshot of
// the mutable rest) as CRC-framed chunks between a header and a trailer, so damage anywhere is found.

import { readFileSync } from 'node:fs';
import { crc32 } from '../core/crc32.ts';
import type { TimeSlicer } from '../core/time-slicer.ts';
import { frame, frameHeaderOf, readRecord } from './record-frame.ts';
import { IMAGE_FORMAT } from '../store/source-image.ts';

const RECORD_PART_HEADER = 2;
const RECORD_PART_CHUNK = 3;
const RECORD_PART_TRAILER = 4;

/** What a part file says about itself (kept small: it is read before the chunks). */
export interface PartHeader {
  /** The part's key, unique within its source. */
  key: string;
  source: string;
  /** Events the part holds (what is lost if it is set aside). */
  events: number;
  /** The store's image layout of the chunks (IMAGE_FORMAT when written); parts written before it was recorded hold format 1. */
  format: number;
}

export interface PartFile extends PartHeader {
  chunks: Buffer[];
}

/** Thrown when a part file or the manifest is damaged; the message says which file, where, and what to do. */
export class CorruptStateError extends Error {
  constructor(readonly file: string, readonly offset: number, why: string, readonly events: number | null = null) {
    super(`The state file ${file} is damaged at byte ${offset} (${why}). Nothing was loaded. ` +
      'Run `ringql repair` (or start with --discard-corrupt) to move it aside' +
      (events === null ? '' : `; it holds ${events} events, which would be lost`) + '.');
    this.name = 'CorruptStateError';
  }
}

/**
 * Thrown when a part file is whole but holds chunks in an image layout this ringql does not read (written
 * by another version): the start stops, and nothing is set aside, since nothing is damaged.
 */
export class IncompatibleStateError extends Error {
  constructor(readonly file: string, readonly format: number) {
    super(`The state file ${file} holds image format ${format}; this ringql reads format ${IMAGE_FORMAT}. Nothing was loaded. ` +
      'Start the ringql version that wrote it, or point RINGQL_STATE_DIR at another folder (its events are not lost while the folder is kept).');
    this.name = 'IncompatibleStateError';
  }
}

/** The framed bytes of a part file, ready for writeFileAtomic. */
export function encodePartFile(header: PartHeader, chunks: readonly Buffer[]): Buffer[] {
  const out = [frame(RECORD_PART_HEADER, Buffer.from(JSON.stringify(header)))];
  for (const c of chunks) out.push(frame(RECORD_PART_CHUNK, c));
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32LE(chunks.length, 0);
  out.push(frame(RECORD_PART_TRAILER, trailer));
  return out;
}

/** CRC-32 is computed over this many bytes between checks of the time slice. */
const CRC_PIECE_BYTES = 256 * 1024;

/**
 * The same bytes as encodePartFile, made in time slices (`slicer`) so a big part never holds the event
 * loop: each chunk's CRC is computed in pieces, and the chunk itself goes out as its own buffer after its
 * record header (no copy).
 */
export async function encodePartFileSliced(header: PartHeader, chunks: readonly Buffer[], slicer: TimeSlicer): Promise<Buffer[]> {
  const out = [frame(RECORD_PART_HEADER, Buffer.from(JSON.stringify(header)))];
  for (const c of chunks) {
    let crc = 0;
    for (let at = 0; at < c.length; at += CRC_PIECE_BYTES) {
      crc = crc32(c.subarray(at, at + CRC_PIECE_BYTES), crc);
      await slicer.pause();
    }
    out.push(frameHeaderOf(RECORD_PART_CHUNK, c.length, crc), c);
  }
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32LE(chunks.length, 0);
  out.push(frame(RECORD_PART_TRAILER, trailer));
  return out;
}

/** Reads and verifies a part file; throws CorruptStateError on any damage (a part file is never torn: it was renamed whole). */
export function readPartFile(path: string): PartFile {
  const buf = readFileSync(path);
  let at = 0;
  let header: PartHeader | null = null;
  const chunks: Buffer[] = [];
  for (;;) {
    const r = readRecord(buf, at);
    if (r.kind === 'end') throw new CorruptStateError(path, at, 'the file ends before its trailer', header?.events ?? null);
    if (r.kind !== 'record') throw new CorruptStateError(path, r.at, r.kind === 'torn' ? 'a record is cut short' : r.why, header?.events ?? null);
    if (header === null) {
      if (r.type !== RECORD_PART_HEADER) throw new CorruptStateError(path, at, 'no part header');
      header = parseHeader(path, r.payload);
    } else if (r.type === RECORD_PART_CHUNK) {
      chunks.push(r.payload);
    } else if (r.type === RECORD_PART_TRAILER) {
      if (r.payload.length !== 4 || r.payload.readUInt32LE(0) !== chunks.length) throw new CorruptStateError(path, at, 'the trailer does not match the chunks read', header.events);
      if (r.next !== buf.length) throw new CorruptStateError(path, r.next, 'bytes after the trailer', header.events);
      return { ...header, chunks };
    } else {
      throw new CorruptStateError(path, at, `unexpected record type ${r.type}`, header.events);
    }
    at = r.next;
  }
}

function parseHeader(path: string, payload: Buffer): PartHeader {
  let v: unknown;
  try {
    v = JSON.parse(payload.toString('utf8'));
  } catch {
    throw new CorruptStateError(path, 0, 'the part header is not JSON');
  }
  const h = v as Partial<PartHeader>;
  if (typeof h.key !== 'string' || typeof h.source !== 'string' || typeof h.events !== 'number') throw new CorruptStateError(path, 0, 'the part header lacks key, source or events');
  if (h.format !== undefined && !Number.isInteger(h.format)) throw new CorruptStateError(path, 0, 'the part header\'s format is not an integer', h.events);
  const format = h.format ?? 1;
  if (format !== IMAGE_FORMAT) throw new IncompatibleStateError(path, format);
  return { key: h.key, source: h.source, events: h.events, format };
}
