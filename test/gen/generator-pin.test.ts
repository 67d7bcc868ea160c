// Pins the generator's output for fixed seeds: a hash of each source's NDJSON lines (generateEvents +
// serializeEvent) and of the demo generator thread's bodies, so a faster generator stays byte-identical.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { startDemoGenerator, type DemoBody } from '../../src/demo-data.ts';
import { generateEvents, GEN_SOURCE_NAMES } from '../../src/gen/generate.ts';
import { serializeEvent } from '../../src/gen/serialize.ts';
import { END_US } from './helpers.ts';

/** sha256 (first 16 hex digits) of each source's lines joined by newlines, in emission order. */
function lineHashes(events: number, seed: number, projects: number, days: number): Record<string, string> {
  const hashes = new Map(GEN_SOURCE_NAMES.map((s) => [s, createHash('sha256')]));
  for (const { source, event } of generateEvents({ events, projects, days, seed, endUs: END_US })) {
    hashes.get(source)!.update(serializeEvent(source, event) + '\n');
  }
  return Object.fromEntries([...hashes].map(([s, h]) => [s, h.digest('hex').slice(0, 16)]));
}

/** The same hashes over the demo thread's bodies (each body's lines and a newline after its last). */
async function demoBodyHashes(events: number): Promise<Record<string, string>> {
  const hashes = new Map(GEN_SOURCE_NAMES.map((s) => [s, createHash('sha256')]));
  const gen = startDemoGenerator(events, END_US);
  await new Promise<void>((resolve, reject) => {
    gen.take((m: DemoBody | null) => {
      if (m === null) { resolve(); return; }
      hashes.get(m.source)!.update(m.body).update('\n');
      m.stored();
    }, reject);
  });
  gen.stop();
  return Object.fromEntries([...hashes].map(([s, h]) => [s, h.digest('hex').slice(0, 16)]));
}

// sha256 of JSON.stringify of each event (the reference text serializeEvent must equal), taken from the
// generator before it was made faster: the same seed must keep giving the same events.
const SEED_42: Record<string, string> = {
  'edge.logs.prod': 'a41d509ca4e19ec4',
  'postgres.logs': '45dae0c9c74c2439',
  'function-relay-logs': '92b4f0745a7c6fc1',
  'function-runtime-events': '0e4baeff66f51f66',
  'auth.logs.prod': '69a0e4f59af88f03',
  'realtime.logs.prod': 'fe347adddb9b9085',
  'storage.logs.prod': '57e875693f1416f9',
  'rest.logs.prod': 'df9d9fb8574858a2',
  'pooler.logs.prod': '6eb30e32be9e5c12',
};
const SEED_7: Record<string, string> = {
  'edge.logs.prod': 'dc7a4a80342d0902',
  'postgres.logs': '8059c680a3088960',
  'function-relay-logs': '8bdd4f8b05f35747',
  'function-runtime-events': '456cba0708f0d110',
  'auth.logs.prod': '6bc31246b4eaa102',
  'realtime.logs.prod': '66a4d7390b579eff',
  'storage.logs.prod': '3b5ffa385f670d6a',
  'rest.logs.prod': 'ed6f572b4bfca7f8',
  'pooler.logs.prod': 'cd212e5655cce63b',
};

describe('generator output pin', () => {
  it('seed 42 (the demo settings), 30,000 events: the same lines per source', () => {
    expect(lineHashes(30_000, 42, 5, 7)).toEqual(SEED_42);
  });

  it('seed 7, 12 projects over 2 days, 20,000 events: the same lines per source', () => {
    expect(lineHashes(20_000, 7, 12, 2)).toEqual(SEED_7);
  });

  it('the demo generator thread writes the same lines into its bodies', async () => {
    expect(await demoBodyHashes(30_000)).toEqual(SEED_42);
  }, 30_000);
});
