// The demo load's generator thread: makes the demo events, serialises them once and posts NDJSON bodies
// per source batch (buffers transferred, not copied), so generating overlaps ingesting on the main thread.

import { parentPort, workerData } from 'node:worker_threads';
import { generateEvents, type GenerateOptions } from './generate.ts';
import { serializeEvent } from './serialize.ts';

export interface DemoWorkerData {
  gen: GenerateOptions;
  batch: number;
}

/** A message from the worker: one body, or the end. */
export type DemoMessage = { source: string; events: number; body: Uint8Array } | { done: true };

function post(source: string, lines: string[]): void {
  const text = lines.join('\n');
  const body = new Uint8Array(Buffer.byteLength(text));
  Buffer.from(body.buffer).write(text);
  const msg: DemoMessage = { source, events: lines.length, body };
  parentPort!.postMessage(msg, [body.buffer]);
  lines.length = 0;
}

const { gen, batch } = workerData as DemoWorkerData;
const lines = new Map<string, string[]>();
for (const { source, event } of generateEvents(gen)) {
  let l = lines.get(source);
  if (!l) lines.set(source, (l = []));
  l.push(serializeEvent(source, event));
  if (l.length >= batch) post(source, l);
}
for (const [source, l] of lines) if (l.length) post(source, l);
parentPort!.postMessage({ done: true } satisfies DemoMessage);
