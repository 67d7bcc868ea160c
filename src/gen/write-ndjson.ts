// Writes the generated stream as one `<source>.ndjson` file per source, in emission order
// (so the files are out of order the way shipped logs are), with large buffered writes.

import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { generateEvents, selectedSources, checkGenerateOptions, type GenerateOptions } from './generate.ts';
import { serializeEvent } from './serialize.ts';

export interface WriteNdjsonOptions extends GenerateOptions {
  out: string;
  onProgress?: (done: number, total: number) => void;
}

export interface WrittenFile {
  source: string;
  path: string;
  events: number;
  bytes: number;
}

/** Bytes buffered per source before a write. */
const CHUNK_BYTES = 1 << 20;
/** onProgress runs about every 100k events (more often for small runs, so 10% steps can be shown). */
const PROGRESS_MAX_STEP = 100_000;

interface Sink {
  file: WrittenFile;
  stream: WriteStream;
  /** Encoding lines straight into a Buffer avoids building (and flattening) one huge string. */
  buf: Buffer;
  used: number;
}

async function flush(sink: Sink): Promise<void> {
  if (sink.used === 0) return;
  const chunk = sink.buf.subarray(0, sink.used);
  sink.buf = Buffer.allocUnsafe(CHUNK_BYTES);
  sink.used = 0;
  sink.file.bytes += chunk.length;
  if (!sink.stream.write(chunk)) await once(sink.stream, 'drain');
}

/** Appends `line` and a newline; false when it does not fit (flush first, or write it alone). */
function append(sink: Sink, line: string): boolean {
  // A UTF-16 code unit takes at most 3 UTF-8 bytes.
  if (sink.used + line.length * 3 + 1 > sink.buf.length) return false;
  sink.used += sink.buf.write(line, sink.used, 'utf8');
  sink.buf[sink.used++] = 10;
  return true;
}

async function close(stream: WriteStream): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    stream.once('error', reject);
    stream.end(() => resolve());
  });
}

export async function writeNdjson(opts: WriteNdjsonOptions): Promise<{ files: WrittenFile[] }> {
  checkGenerateOptions(opts);
  await mkdir(opts.out, { recursive: true });
  const sinks = new Map<string, Sink>();
  const opened: Sink[] = [];
  let failure: Error | null = null;
  for (const s of selectedSources(opts)) {
    const path = join(opts.out, s.name + '.ndjson');
    const stream = createWriteStream(path, { highWaterMark: 4 << 20 });
    const sink: Sink = { file: { source: s.name, path, events: 0, bytes: 0 }, stream, buf: Buffer.allocUnsafe(CHUNK_BYTES), used: 0 };
    stream.on('error', (err) => { failure ??= err; });
    sinks.set(s.name, sink);
    opened.push(sink);
  }
  try {
    const total = opts.events;
    const step = Math.min(PROGRESS_MAX_STEP, Math.max(1000, Math.ceil(total / 20)));
    let done = 0;
    for (const { source, event } of generateEvents(opts)) {
      const sink = sinks.get(source)!;
      const line = serializeEvent(source, event);
      sink.file.events++;
      if (!append(sink, line)) {
        await flush(sink);
        if (failure) throw failure;
        if (!append(sink, line)) {
          // Longer than a chunk: write it on its own.
          const big = Buffer.from(line + '\n', 'utf8');
          sink.file.bytes += big.length;
          if (!sink.stream.write(big)) await once(sink.stream, 'drain');
        }
      }
      if (++done % step === 0) opts.onProgress?.(done, total);
    }
    for (const sink of opened) await flush(sink);
    for (const sink of opened) await close(sink.stream);
    if (failure) throw failure;
    opts.onProgress?.(done, total);
  } catch (err) {
    for (const sink of opened) sink.stream.destroy();
    throw err;
  }
  return { files: opened.map((s) => s.file) };
}
