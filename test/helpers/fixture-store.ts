// Test fixture: the small hand-written event files of test/fixtures loaded (out of order) into a
// real Store, and a QueryService over it with the clock fixed at FIXTURE_NOW.

import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { parseTimestamp } from '../../src/core/time.ts';

export const FIXTURE_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));
export const FIXTURE_NOW = parseTimestamp('2025-01-15T12:00:00Z')!;

export function fixtureEvents(source: string): Record<string, unknown>[] {
  return readFileSync(join(FIXTURE_DIR, `${source}.ndjson`), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
}

export function fixtureSources(): string[] {
  return readdirSync(FIXTURE_DIR).filter((f) => f.endsWith('.ndjson')).map((f) => f.replace(/\.ndjson$/, ''));
}

/** A store holding every fixture file, ingested in two interleaved halves to exercise out-of-order arrival. */
export function fixtureStore(segmentRows = 8): Store {
  const store = new Store({ ...defaultStoreConfig({}), segmentRows });
  for (const s of fixtureSources()) {
    const events = fixtureEvents(s);
    const odd = events.filter((_, i) => i % 2 === 1);
    const even = events.filter((_, i) => i % 2 === 0);
    store.source(s)!.ingest(odd, FIXTURE_NOW);
    store.source(s)!.ingest(even, FIXTURE_NOW);
  }
  return store;
}

export async function fixtureService(segmentRows = 8) {
  const store = fixtureStore(segmentRows);
  const service = await createQueryService({ store, stateDir: null, nowMicros: () => FIXTURE_NOW, cache: { sweepMs: 0 } });
  return { store, service };
}
