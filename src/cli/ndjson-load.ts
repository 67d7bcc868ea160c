// Streams an NDJSON file into the store for `ringql query --load`: large raw reads cut on line ends into
// bodies of at most BODY_LINES lines (never split into strings and joined again), a few in flight through
// the byte path; a bad line stops the load naming the file and the line.

import { createReadStream } from 'node:fs';
import { RingqlError } from '../core/errors.ts';

/** Lines per body: under the default events-per-batch limit (RINGQL_MAX_EVENTS_PER_BATCH, 10,000). */
export const BODY_LINES = 5000;
const READ_BYTES = 4 * 1024 * 1024;
/** Bodies handed to the transform thread before the next read waits for the oldest. */
const IN_FLIGHT = 4;
const NL = 0x0a;

export class LoadError extends Error {}

export interface Loaded { stored: number; dropped: number }
/** Stores one NDJSON body (the byte path; `parse` is its reference fallback), in the order called. */
export type IngestBody = (body: Buffer, parse: () => unknown[]) => Loaded | Promise<Loaded>;
export interface LoadIo { err(s: string): void }

/** The non-blank lines of `body` with their line numbers, the first line being `firstLine`. */
function linesOf(body: Buffer, firstLine: number): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  body.toString('utf8').split('\n').forEach((text, k) => {
    if (text.trim()) out.push({ text, line: firstLine + k });
  });
  return out;
}

/** The reference path's events of a body, a line that is not JSON named by its number. */
export function parseLines(file: string, body: Buffer, firstLine: number): unknown[] {
  return linesOf(body, firstLine).map(({ text, line }) => {
    try { return JSON.parse(text) as unknown; } catch (err) { throw new LoadError(`${file}:${line}: not JSON: ${(err as Error).message}`); }
  });
}

/** An invalid batch named by the file and line of its first bad event; other errors as they are. */
export function located(err: unknown, file: string, body: Buffer, firstLine: number): unknown {
  if (!(err instanceof RingqlError) || err.code !== 'invalid_events') return err;
  const first = (err.details.errors as { index: number; message: string }[] | undefined)?.[0];
  const line = linesOf(body, firstLine)[first?.index ?? 0]?.line ?? firstLine;
  return new LoadError(`${file}:${line}: invalid event: ${first?.message ?? err.message}`);
}

/** The `loading <file>: N events` line on stderr every 500,000 events, ended by a newline once shown. */
export class LoadProgress {
  private next = 500_000;
  private shown = false;
  constructor(private readonly file: string, private readonly io: LoadIo) {}

  /** Reports `total` (stored + dropped so far) when it has passed the next mark. */
  update(total: Loaded): void {
    const n = total.stored + total.dropped;
    if (n < this.next) return;
    this.next += 500_000;
    this.shown = true;
    this.io.err(`\rloading ${this.file}: ${n} events`);
  }

  /** Ends the progress line, if one was shown. */
  end(): void {
    if (this.shown) this.io.err('\n');
  }
}

export async function loadNdjson(file: string, ingest: IngestBody, io: LoadIo): Promise<Loaded> {
  const total: Loaded = { stored: 0, dropped: 0 };
  const inFlight: Promise<void>[] = [];
  const progress = new LoadProgress(file, io);
  const submit = (body: Buffer, firstLine: number): void => {
    const p = Promise.resolve()
      .then(() => ingest(body, () => parseLines(file, body, firstLine)))
      .then((r) => {
        total.stored += r.stored;
        total.dropped += r.dropped;
        progress.update(total);
      }, (err: unknown) => { throw located(err, file, body, firstLine); });
    p.catch(() => {}); // awaited in order below; this only keeps a later body's failure from being "unhandled" meanwhile
    inFlight.push(p);
  };
  let carry: Buffer = Buffer.alloc(0);
  let line = 1;
  let readError: unknown = null;
  const stream = createReadStream(file, { highWaterMark: READ_BYTES }).on('error', (err) => { readError = err; });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      let start = 0, pos = 0, lines = 0;
      for (let nl = buf.indexOf(NL); nl >= 0; nl = buf.indexOf(NL, pos)) {
        pos = nl + 1;
        if (++lines === BODY_LINES) {
          submit(buf.subarray(start, pos), line);
          line += lines;
          start = pos;
          lines = 0;
        }
      }
      if (lines > 0) {
        submit(buf.subarray(start, pos), line);
        line += lines;
        start = pos;
      }
      carry = buf.subarray(start);
      while (inFlight.length >= IN_FLIGHT) await inFlight.shift();
    }
  } catch (err) {
    if (err !== readError) throw err;
    throw new LoadError(`Cannot read ${file}: ${(err as Error).message}`);
  }
  if (carry.length) submit(carry, line);
  for (const p of inFlight) await p;
  progress.end();
  return total;
}
