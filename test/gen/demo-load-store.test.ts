// The demo load through the real service and transform thread (bodies read in place in shared memory):
// every source holds exactly what ingestBytes of the same NDJSON bodies stores, and queries answer mid-load.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemo, startDemoGenerator } from '../../src/demo-data.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { generateEvents } from '../../src/gen/generate.ts';
import { serializeEvent } from '../../src/gen/serialize.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { TransformThread } from '../../src/store/transform-thread.ts';
import { snapshot } from '../store/byte-ingest-diff.ts';
import { END_US } from './helpers.ts';

const EVENTS = 16_000;
// Every row stays in the open segment, so the comparison sees stored bytes exactly.
const config = { ...defaultStoreConfig({}), segmentRows: 1 << 30 };

let thread: TransformThread;
beforeAll(async () => { thread = await TransformThread.start(); });
afterAll(async () => { await thread.close(); });

/** The demo's bodies as the generator makes them (its options, 1000 lines per body per source). */
function demoBodies(): Map<string, Buffer[]> {
  const lines = new Map<string, string[]>();
  const out = new Map<string, Buffer[]>();
  const flush = (source: string, l: string[]): void => {
    if (!out.has(source)) out.set(source, []);
    out.get(source)!.push(Buffer.from(l.splice(0).join('\n')));
  };
  for (const { source, event } of generateEvents({ events: EVENTS, projects: 5, days: 7, seed: 42, endUs: END_US })) {
    let l = lines.get(source);
    if (!l) lines.set(source, (l = []));
    l.push(serializeEvent(source, event));
    if (l.length === 1000) flush(source, l);
  }
  for (const [source, l] of lines) if (l.length) flush(source, l);
  return out;
}

describe('demo load into the store', () => {
  it('stores what ingestBytes of the same bodies stores, and answers queries while it loads', async () => {
    const store = new Store(config);
    const service = await createQueryService({ store, stateDir: null, nowMicros: () => END_US, cache: { sweepMs: 0 } });
    service.attachTransformer(thread);
    const countEdge = async (): Promise<number> => {
      const r = await service.run({ endpoint: 'logs.all', params: new Map([['project', 'default'], ['sql', 'select count(*) as n from edge_logs']]), redactHeader: false });
      return (JSON.parse(r.body.toString()) as { result: { n: number }[] }).result[0]!.n;
    };
    const load = loadDemo(service, startDemoGenerator(EVENTS, END_US));
    let done = false;
    void load.done.then(() => { done = true; });
    await load.first;
    // Serving during the load: a query answers (with the rows stored so far) before the load is done.
    const mid = await countEdge();
    expect(done).toBe(false);
    expect(await load.done).toBe(EVENTS);
    expect(mid).toBeLessThan(await countEdge());
    const ref = new Store(config);
    for (const [source, bodies] of demoBodies()) {
      for (const b of bodies) expect(typeof ref.source(source)!.ingestBytes(b, true, END_US)).toBe('object');
      expect(snapshot(store.source(source)!)).toEqual(snapshot(ref.source(source)!));
    }
    expect(store.sources().reduce((n, s) => n + s.stats().rows, 0)).toBe(EVENTS);
    service.close();
  }, 60_000);
});
