// The demo load's generator thread: makes the demo events, writes each one's NDJSON line straight into its
// source's body bytes and posts the bodies per source batch (buffers transferred, not copied).

import { parentPort, workerData } from 'node:worker_threads';
import { generateEvents, type GenerateOptions } from './generate.ts';
import { serializeEvent } from './serialize.ts';

export interface DemoWorkerData {
  gen: GenerateOptions;
  batch: number;
  /** Int32 [0]: bodies posted and not yet stored; the thread waits while it is at `maxQueued`. */
  queued: SharedArrayBuffer;
  maxQueued: number;
}

/** A message from the worker: one body, or the end. */
export type DemoMessage = { source: string; events: number; body: Uint8Array } | { done: true };

/** One source's body being written: lines encoded straight into bytes (no joined string per body). */
interface Pending { buf: Buffer; off: number; events: number }

function post(source: string, p: Pending): void {
  // Backpressure: generation never runs far ahead of storing (the bodies would pile up in memory).
  for (let q = Atomics.load(queued, 0); q >= maxQueued; q = Atomics.load(queued, 0)) Atomics.wait(queued, 0, q, 1000);
  Atomics.add(queued, 0, 1);
  const body = new Uint8Array(p.buf.buffer, p.buf.byteOffset, p.off);
  const msg: DemoMessage = { source, events: p.events, body };
  parentPort!.postMessage(msg, [p.buf.buffer as ArrayBuffer]);
  // The next body of this source gets about as many bytes as this one took.
  p.buf = Buffer.allocUnsafeSlow(Math.max(64 * 1024, Math.ceil(p.off * 1.25)));
  p.off = 0;
  p.events = 0;
}

/** Appends one NDJSON line, growing the buffer when the line could pass its end (3 bytes per UTF-16 unit at most). */
function append(p: Pending, line: string): void {
  const need = p.off + 1 + 3 * line.length;
  if (need > p.buf.length) {
    const grown = Buffer.allocUnsafeSlow(Math.max(need, 2 * p.buf.length));
    p.buf.copy(grown, 0, 0, p.off);
    p.buf = grown;
  }
  if (p.events > 0) p.buf[p.off++] = 0x0a;
  p.off += p.buf.write(line, p.off);
  p.events++;
}

const data = workerData as DemoWorkerData;
const { gen, batch, maxQueued } = data;
const queued = new Int32Array(data.queued);
const bodies = new Map<string, Pending>();
for (const { source, event } of generateEvents(gen)) {
  let p = bodies.get(source);
  if (!p) bodies.set(source, (p = { buf: Buffer.allocUnsafeSlow(256 * 1024), off: 0, events: 0 }));
  append(p, serializeEvent(source, event));
  if (p.events >= batch) post(source, p);
}
for (const [source, p] of bodies) if (p.events) post(source, p);
parentPort!.postMessage({ done: true } satisfies DemoMessage);
