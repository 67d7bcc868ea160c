// The addon's transform alone, CPU µs per event (best of rounds), for demo and small edge events, with
// and without noRows, plus a digest of every output byte (rows, meta, strings, descriptors) to compare builds.
// RINGQL_ADDON=<path of a ringql_ingest.node> times another build (e.g. an older commit's) in its place.

import { createHash, randomBytes } from 'node:crypto';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import { runTransform as storeTransform, type TransformRequest } from '../src/store/byte-batch.ts';
import { loadIngestAddon, type NativeBatch } from '../src/store/native-ingest.ts';
import { demoBodies, smallEdgeBodies, type Body } from './ingest-corpus.ts';

const END_US = Date.UTC(2026, 10, 1) * 1000;
const rounds = Number(process.env.ROUNDS ?? 5);
const events = Number(process.env.EVENTS ?? 30_000);

function requests(bodies: Body[], noRows: boolean): TransformRequest[] {
  const s = new Store({ ...defaultStoreConfig({}), maxRows: 50_000_000, maxBytes: 64 * 2 ** 30, retentionUs: 1e18 });
  const seed = Buffer.alloc(16, 7);
  return bodies.map((b) => ({ ...s.source(b.source)!.transformRequest(b.bytes, false, END_US, seed), noRows }));
}

function digest(reqs: TransformRequest[]): string {
  const h = createHash('sha256');
  for (const r of reqs) {
    const b = runTransform(r);
    if (typeof b === 'string') { h.update(`declined:${b}`); continue; }
    h.update(b.rows).update(Buffer.from(b.meta.buffer, b.meta.byteOffset, b.meta.byteLength)).update(b.strs).update(b.descs);
    h.update(Buffer.from(b.strEnds.buffer, b.strEnds.byteOffset, b.strEnds.byteLength)).update(Buffer.from(b.descEnds.buffer, b.descEnds.byteOffset, b.descEnds.byteLength));
    h.update(String(b.noRowsBytes ?? -1));
  }
  return h.digest('hex').slice(0, 16);
}

function cpuUs(reqs: TransformRequest[], n: number): number {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t = process.cpuUsage();
    for (const q of reqs) runTransform(q);
    const d = process.cpuUsage(t);
    best = Math.min(best, (d.user + d.system) / n);
  }
  return best;
}

void randomBytes;
const other = process.env.RINGQL_ADDON ? loadIngestAddon(process.env.RINGQL_ADDON) : null;
function runTransform(r: TransformRequest): NativeBatch | string {
  if (!other) return storeTransform(r);
  return other.transform(r.body, r.ndjson, r.maxEventDepth, r.maxStringBytes, r.fillUs, r.projectPath, r.hotPaths, r.idSeed, r.noRows === true);
}
const loop = Number(process.env.LOOP ?? 0);
for (const [name, bodies] of [['demo', demoBodies(events, END_US)], ['small', smallEdgeBodies(events, END_US)]] as const) {
  const n = bodies.reduce((a, b) => a + b.events, 0), bytes = bodies.reduce((a, b) => a + b.bytes.length, 0);
  for (const noRows of [false, true]) {
    const reqs = requests(bodies, noRows);
    for (let i = 0; i < loop; i++) for (const q of reqs) runTransform(q);
    const us = cpuUs(reqs, n);
    console.log(`${name}${noRows ? ' noRows' : ''}: ${n} events, ${(bytes / n).toFixed(0)} B/event, transform ${us.toFixed(3)} µs/event (${(bytes / n / us).toFixed(0)} MB/s), digest ${digest(reqs)}`);
  }
}
