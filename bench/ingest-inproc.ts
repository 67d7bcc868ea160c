// In-process ingest cost per event: JSON.parse of the body bytes, the reference path (parse + ingest),
// and the byte path (SourceStore.ingestBytes), for demo events and small edge events; CPU time, not wall.
// Both paths include compressing the blocks their seals queue, after each body (the server does it on the
// transform thread soon after each seal).

import { parseEventsBody } from '../src/endpoints/events-body.ts';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import type { Body } from './ingest-corpus.ts';
import { randomBytes } from 'node:crypto';
import { runTransform } from '../src/store/byte-batch.ts';
import type { NativeBatch } from '../src/store/native-ingest.ts';
import { compressPendingNow } from '../src/store/block-compressor.ts';
import { runChild } from './child.ts';
import { nodeFlags } from '../src/cli/node-flags.ts';

export interface InprocFigure {
  events: number;
  bytes: number;
  parseUs: number;
  referenceUs: number;
  bytePathUs: number;
  /** The byte path split as the server runs it: the addon's transform and the sealed blocks' compression (the transform thread), the store's part (the main thread). */
  transformUs: number;
  storeUs: number;
  compressUs: number;
}

function store(): Store {
  return new Store({ ...defaultStoreConfig({}), maxRows: 50_000_000, maxBytes: 64 * 2 ** 30, retentionUs: 1e18 });
}

/** CPU time (user + system) of f in µs: on a shared machine, time off the CPU does not count. */
function timeUs(f: () => void): number {
  const t = process.cpuUsage();
  f();
  const d = process.cpuUsage(t);
  return d.user + d.system;
}

/**
 * inproc() for one corpus in a fresh child process run as `npm start` runs the server (src/cli/node-flags.ts's
 * V8 heap limit and young-generation cap, MALLOC_ARENA_MAX=2), JSON.parse measured in that same child: in the
 * bench runner the byte path met the heap, JIT state and default young generation the other sections left, and
 * read up to a quarter higher than standalone (bench/INGEST.md, round 11).
 */
export function inprocInChild(corpus: 'demo' | 'small', events: number, nowUs: number, rounds = INPROC_ROUNDS): Promise<InprocFigure> {
  const env = { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' };
  return runChild<InprocFigure>('ingest-inproc-child.ts', [corpus, String(events), String(nowUs), String(rounds)], nodeFlags(env), env);
}

/** Passes over all bodies per path, the best counted (bench/INGEST.md, round 11: why 6, not 3). */
export const INPROC_ROUNDS = 6;

/** Best of `rounds` passes over all bodies (a fresh store per pass), µs per event. */
export function inproc(bodies: Body[], nowUs: number, rounds = INPROC_ROUNDS): InprocFigure {
  const events = bodies.reduce((a, b) => a + b.events, 0), bytes = bodies.reduce((a, b) => a + b.bytes.length, 0);
  let parse = Infinity, ref = Infinity, fast = Infinity;
  for (let r = 0; r < rounds; r++) {
    parse = Math.min(parse, timeUs(() => { for (const b of bodies) JSON.parse(b.bytes.toString('utf8')); }));
    const s1 = store();
    // Each body's sealed blocks are compressed before the next body, as the transform thread does soon after a seal.
    ref = Math.min(ref, timeUs(() => { for (const b of bodies) { s1.source(b.source)!.ingest(parseEventsBody(b.bytes, 'application/json'), nowUs); compressPendingNow(); } }));
    const s2 = store();
    fast = Math.min(fast, timeUs(() => {
      for (const b of bodies) {
        const x = s2.source(b.source)!.ingestBytes(b.bytes, false, nowUs);
        if (typeof x === 'string') throw new Error(`the byte path declined a bench body: ${x}`);
        compressPendingNow();
      }
    }));
  }
  const split = splitBytePath(bodies, nowUs, rounds);
  return { events, bytes, parseUs: parse / events, referenceUs: ref / events, bytePathUs: fast / events, transformUs: split.transform / events, storeUs: split.store / events, compressUs: split.compress / events };
}

/**
 * Best of `rounds`: CPU µs of the transforms alone, of storing their results (a fresh store per pass), of
 * compressing the sealed blocks. The blocks are compressed after each body, timed apart, as the server's
 * transform thread compresses them soon after each seal: the store's next seals and merges then meet
 * compressed blocks (a seal slab is reused once its blocks are compressed; merges decode small blocks).
 */
function splitBytePath(bodies: Body[], nowUs: number, rounds: number): { transform: number; store: number; compress: number } {
  let transform = Infinity, stored = Infinity, compress = Infinity;
  for (let r = 0; r < rounds; r++) {
    const s = store();
    const seed = randomBytes(16);
    const reqs = bodies.map((b) => s.source(b.source)!.transformRequest(b.bytes, false, nowUs, seed));
    let batches: (NativeBatch | string)[] = [];
    transform = Math.min(transform, timeUs(() => { batches = reqs.map(runTransform); }));
    let storeUs = 0, compressUs = 0;
    bodies.forEach((b, i) => {
      storeUs += timeUs(() => {
        const x = s.source(b.source)!.ingestTransformed(batches[i]!, nowUs);
        if (typeof x === 'string') throw new Error(`the byte path declined a bench body: ${x}`);
      });
      compressUs += timeUs(compressPendingNow);
    });
    stored = Math.min(stored, storeUs);
    compress = Math.min(compress, compressUs);
  }
  return { transform, store: stored, compress };
}
