// Request bodies past the wire: the Content-Encoding check (gzip or none; else 415) and a streaming
// gzip inflate that stops at a decompressed-size cap (413), so a zip bomb cannot exhaust memory.

import { createGunzip } from 'node:zlib';
import { RingqlError } from '../core/errors.ts';

export type BodyEncoding = 'identity' | 'gzip';

/** Checks the Content-Encoding header before any body byte is read. */
export function bodyEncoding(header: string): BodyEncoding {
  const enc = header.trim().toLowerCase();
  if (enc === '' || enc === 'identity') return 'identity';
  if (enc === 'gzip' || enc === 'x-gzip') return 'gzip';
  throw new RingqlError('unsupported_encoding', `Content-Encoding "${enc.slice(0, 60)}" is not supported; send gzip or no encoding`, {
    allowed: ['gzip', 'identity'],
  });
}

/** `badBodyCode` is the code a body that is not valid gzip gets: invalid_events on ingest routes, invalid_parameter elsewhere. */
export function decodeBody(raw: Buffer, encoding: BodyEncoding, maxDecompressedBytes: number, badBodyCode: 'invalid_events' | 'invalid_parameter' = 'invalid_parameter'): Promise<Buffer> {
  if (encoding === 'identity' || raw.length === 0) return Promise.resolve(raw);
  return gunzipCapped(raw, maxDecompressedBytes, badBodyCode);
}

const INPUT_CHUNK = 64 * 1024;

export function gunzipCapped(raw: Buffer, maxBytes: number, badBodyCode: 'invalid_events' | 'invalid_parameter' = 'invalid_parameter'): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const gunzip = createGunzip();
    const out: Buffer[] = [];
    let total = 0;
    let settled = false;
    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      gunzip.destroy();
      reject(err);
    };
    gunzip.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        fail(new RingqlError('payload_too_large', `The body inflates to more than the ${maxBytes}-byte limit`, { limit: maxBytes }));
        return;
      }
      out.push(chunk);
    });
    gunzip.on('error', (err: Error) => fail(new RingqlError(badBodyCode, `The body is not valid gzip: ${err.message}`)));
    gunzip.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(out, total));
    });
    // Fed in slices with backpressure, so inflated output is consumed (and counted) as it is produced.
    let offset = 0;
    const feed = (): void => {
      while (!settled && offset < raw.length) {
        const slice = raw.subarray(offset, offset + INPUT_CHUNK);
        offset += slice.length;
        if (!gunzip.write(slice)) {
          gunzip.once('drain', feed);
          return;
        }
      }
      if (!settled) gunzip.end();
    };
    feed();
  });
}
