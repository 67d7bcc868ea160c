// The in-process ingest split of bench/ingest-inproc.ts (60k events, as `npm run bench`'s ingest section) per
// corpus, plus the compressed bytes per event of the sealed blocks (every source), to compare codec settings
// before/after in the same minutes.   Run: npx tsx bench/compress-split.ts [events]

import { inproc } from './ingest-inproc.ts';
import { demoBodies, smallEdgeBodies, type Body } from './ingest-corpus.ts';
import { smallRandomBodies } from './block-codec-micro.ts';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import { compressPendingNow } from '../src/store/block-compressor.ts';
import type { SegmentSet } from '../src/store/segment-set.ts';
import type { BlockRows } from '../src/store/row-blocks.ts';

/** Compressed bytes of every sealed block per event, and of the raw rows in them (one store, all bodies). */
function blockBytes(bodies: Body[], nowUs: number): { perEvent: number; ofRaw: number; tunings: string } {
  const store = new Store({ ...defaultStoreConfig({}), maxRows: 50_000_000, maxBytes: 64 * 2 ** 30, retentionUs: 1e18 });
  for (const b of bodies) store.source(b.source)!.ingestBytes(b.bytes, false, nowUs);
  compressPendingNow();
  let comp = 0, raw = 0, rows = 0;
  const tunings = new Set<string>();
  for (const src of new Set(bodies.map((b) => b.source))) {
    const set = (store.source(src) as unknown as { rows: SegmentSet }).rows;
    if (set.codec?.dict) tunings.add(`${set.codec.tuning === null ? 'level 1' : 'lazy'} dict ${set.codec.dict.length}`);
    for (const seg of set.segments) for (const b of (seg.rows as BlockRows).blocks) { comp += b.comp!.length; raw += b.rawLen; rows += b.rowCount; }
  }
  return { perEvent: comp / rows, ofRaw: comp / raw, tunings: [...tunings].join(', ') };
}

const events = Number(process.argv[2] ?? 60_000);
const now = Date.now() * 1000;
const corpora = [['demo', demoBodies(events, now)], ['small', smallEdgeBodies(events, now)], ['random', smallRandomBodies(events)]] as const;
for (const [name, bodies] of corpora) {
  const f = inproc(bodies, name === 'random' ? Number(process.env.RINGQL_BENCH_END_US) : now);
  const z = blockBytes(bodies, name === 'random' ? Number(process.env.RINGQL_BENCH_END_US) : now);
  process.stdout.write(`${name}: JSON.parse ${f.parseUs.toFixed(2)}, byte path ${f.bytePathUs.toFixed(2)} (transform ${f.transformUs.toFixed(2)}, store ${f.storeUs.toFixed(2)}, compress ${f.compressUs.toFixed(2)}) µs/event; blocks ${z.perEvent.toFixed(1)} B/event, ${z.ofRaw.toFixed(4)}x raw; ${z.tunings}\n`);
}
