// The demo load's generator thread: makes the demo events, holds each one's NDJSON bytes off the heap while
// the generator holds it back, then copies them into its source's body, in shared memory slots that the main
// and transform threads read in place.

import { parentPort, workerData } from 'node:worker_threads';
import { generateHeld, selectedSources, type GenerateOptions } from './generate.ts';
import { LineArena } from './line-arena.ts';
import { serializeEvent } from './serialize.ts';

export interface DemoWorkerData {
  gen: GenerateOptions;
  /** A body is posted once it holds `batch` events or `bodyBytes` bytes, whichever comes first. */
  batch: number;
  bodyBytes: number;
  /** Int32 [0]: bodies posted and not yet stored; the thread waits while it is at `maxQueued`. */
  queued: SharedArrayBuffer;
  maxQueued: number;
  /** Int32 per body slot: 1 while a posted body's bytes are in use (the main thread sets it back to 0 once stored). */
  slots: SharedArrayBuffer;
}

/**
 * A message from the worker: one body (the first `length` bytes of slot `slot`, whose memory comes with the
 * message when the main thread has not seen it yet), or the end.
 */
export type DemoMessage = { source: string; events: number; slot: number; length: number; memory?: SharedArrayBuffer } | { done: true };

/** One source's body being written into slot `slot`: lines copied in as bytes (no joined string per body). */
interface Pending { slot: number; off: number; events: number }

const data = workerData as DemoWorkerData;
const { gen, batch, bodyBytes, maxQueued } = data;
const queued = new Int32Array(data.queued);
const inUse = new Int32Array(data.slots);
/** Each slot's shared memory (grown by replacing it), its Buffer, and the memory the main thread was last sent. */
const memory: (SharedArrayBuffer | null)[] = new Array<SharedArrayBuffer | null>(inUse.length).fill(null);
const views: Buffer[] = new Array<Buffer>(inUse.length);
const sent: (SharedArrayBuffer | null)[] = new Array<SharedArrayBuffer | null>(inUse.length).fill(null);
/** Slots this thread is writing (not posted yet). */
const writing = new Set<number>();
/** The longest body posted so far: a slot that must grow grows to about that at once. */
let longest = 0;

/** A slot neither posted and unstored nor being written; waits for the main thread to store bodies while none is. */
function freeSlot(): number {
  for (;;) {
    for (let i = 0; i < inUse.length; i++) if (!writing.has(i) && Atomics.load(inUse, i) === 0) return i;
    const q = Atomics.load(queued, 0);
    Atomics.wait(queued, 0, q, 100);
  }
}

/** Makes slot `i` at least `bytes` long, keeping its first `keep` bytes. */
function ensure(i: number, bytes: number, keep: number): void {
  const old = memory[i];
  if (old && old.byteLength >= bytes) return;
  // Slots grow early (to about the longest body yet) and then stay: little copying, and no new memory per body.
  const grown = new SharedArrayBuffer(Math.max(bytes, 256 * 1024, 2 * (old?.byteLength ?? 0), Math.ceil(longest * 1.25)));
  const view = Buffer.from(grown);
  if (old && keep > 0) views[i]!.copy(view, 0, 0, keep);
  memory[i] = grown;
  views[i] = view;
}

function post(source: string, p: Pending): void {
  // Backpressure: generation never runs far ahead of storing (the bodies would pile up in memory).
  for (let q = Atomics.load(queued, 0); q >= maxQueued; q = Atomics.load(queued, 0)) Atomics.wait(queued, 0, q, 1000);
  Atomics.add(queued, 0, 1);
  const i = p.slot;
  longest = Math.max(longest, p.off);
  Atomics.store(inUse, i, 1);
  writing.delete(i);
  const msg: DemoMessage = { source, events: p.events, slot: i, length: p.off };
  if (sent[i] !== memory[i]) msg.memory = sent[i] = memory[i]!;
  parentPort!.postMessage(msg);
  p.slot = -1;
  p.off = 0;
  p.events = 0;
}

/** Appends the line of handle `h`, taking a slot for a new body and growing it when the line would pass its end. */
function append(p: Pending, h: number): void {
  if (p.slot < 0) {
    p.slot = freeSlot();
    writing.add(p.slot);
  }
  ensure(p.slot, p.off + 1 + arena.length(h), p.off);
  const buf = views[p.slot]!;
  if (p.events > 0) buf[p.off++] = 0x0a;
  p.off += arena.take(h, buf, p.off);
  p.events++;
}

// Events wait in the generator's shuffled chunk and late queue as bytes, not objects: holding the objects
// made every young-generation GC copy a few hundred live events (bench/INGEST.md, 2026-11-25 13:20).
const arena = new LineArena();
const names = selectedSources(gen).map((s) => s.name);
const bodies: Pending[] = names.map(() => ({ slot: -1, off: 0, events: 0 }));
const hold = (source: string, event: Record<string, unknown>): number => arena.put(serializeEvent(source, event), names.indexOf(source));
for (const h of generateHeld(gen, hold)) {
  const s = arena.tag(h);
  const p = bodies[s]!;
  append(p, h);
  if (p.events >= batch || p.off >= bodyBytes) post(names[s]!, p);
}
for (let s = 0; s < names.length; s++) if (bodies[s]!.events) post(names[s]!, bodies[s]!);
parentPort!.postMessage({ done: true } satisfies DemoMessage);
