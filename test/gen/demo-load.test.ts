// The demo load at start (src/demo-data.ts): the generator thread's bodies reach the service whole and in
// full, and the load reports its first stored body before the rest, so the server can listen early.

import { describe, expect, it } from 'vitest';
import { DEMO_BODY_BYTES, loadDemo, startDemo, startDemoGenerator } from '../../src/demo-data.ts';
import type { EngineService } from '../../src/endpoints/service.ts';
import { generateEvents } from '../../src/gen/generate.ts';
import { serializeEvent } from '../../src/gen/serialize.ts';
import { END_US } from './helpers.ts';

/** A body the service saw: its source, lines, bytes and longest line's bytes. */
interface HeldBody { source: string; lines: number; bytes: number; longestLine: number }

/** A service that records each body and stores it only when the test releases it. */
function holdingService(): { service: EngineService; bodies: HeldBody[]; release: () => void; releaseOne: () => void; waiting: () => number } {
  const bodies: HeldBody[] = [];
  let held: (() => void)[] = [];
  let open = false;
  const fake = {
    ingestBodyVolatileAsync(source: string, body: Buffer): Promise<void> {
      const text = body.toString('utf8');
      // Every line is one whole JSON event (NDJSON without a trailing newline).
      const lines = text.split('\n');
      for (const l of lines) JSON.parse(l);
      bodies.push({ source, lines: lines.length, bytes: body.length, longestLine: Math.max(...lines.map((l) => Buffer.byteLength(l))) });
      return open ? Promise.resolve() : new Promise<void>((resolve) => held.push(resolve));
    },
    ingestVolatile(): void {},
  };
  return {
    // Only the two methods the demo load and its trickle call.
    service: fake as unknown as EngineService,
    bodies,
    release: (): void => { open = true; for (const r of held) r(); held = []; },
    releaseOne: (): void => held.shift()?.(),
    waiting: () => held.length,
  };
}

const settled = async <T>(p: Promise<T>): Promise<boolean> => {
  let done = false;
  void p.then(() => { done = true; }, () => { done = true; });
  await new Promise((r) => setTimeout(r, 20));
  return done;
};

describe('demo load', () => {
  it('stores every generated event, and marks the first stored body before the load is done', async () => {
    const h = holdingService();
    const gen = startDemoGenerator(5000);
    const lines: string[] = [];
    const load = loadDemo(h.service, gen, (l) => lines.push(l));
    // Nothing stored yet: neither promise settles while the service holds every body.
    await new Promise((r) => setTimeout(r, 200));
    expect(await settled(load.first)).toBe(false);
    expect(await settled(load.done)).toBe(false);
    // Storing the first bodies settles `first`; `done` waits for the generator's end.
    h.release();
    await load.first;
    const stored = await load.done;
    expect(stored).toBe(5000);
    expect(h.bodies.reduce((n, b) => n + b.lines, 0)).toBe(5000);
    // Batches of at most 1000 events per body, from several of the nine sources.
    expect(Math.max(...h.bodies.map((b) => b.lines))).toBeLessThanOrEqual(1000);
    // ... and of at most DEMO_BODY_BYTES before their last line (the one that crossed it): the edge events'
    // bodies are cut by bytes, well before 1000 of their ~2.3 KB lines.
    for (const b of h.bodies) expect(b.bytes - b.longestLine - 1).toBeLessThan(DEMO_BODY_BYTES);
    expect(h.bodies.some((b) => b.source === 'edge.logs.prod' && b.lines < 1000 && b.bytes >= DEMO_BODY_BYTES)).toBe(true);
    expect(new Set(h.bodies.map((b) => b.source)).size).toBeGreaterThan(3);
    expect(lines.at(-1)).toMatch(/^demo: loaded 5000 events in \d+\.\d s$/);
  }, 30_000);

  it('startDemo returns once the first body is stored, while the rest still loads', async () => {
    const h = holdingService();
    const gen = startDemoGenerator(20_000);
    const log: string[] = [];
    const failures: Error[] = [];
    const started = startDemo(h.service, gen, (l) => log.push(l), (e) => failures.push(e));
    expect(await settled(started)).toBe(false);
    // Store one body only: the others stay held, so the load cannot be done.
    while (h.waiting() < 2) await new Promise((r) => setTimeout(r, 20));
    h.releaseOne();
    const stop = await started;
    expect(log.some((l) => l.startsWith('demo: serving while the rest of the 20000 events load'))).toBe(true);
    expect(h.waiting()).toBeGreaterThan(0);
    // Stopping (a shutdown during the load) ends the generator thread without reporting a failure.
    stop();
    await new Promise((r) => setTimeout(r, 200));
    expect(failures).toEqual([]);
  }, 30_000);

  it('hands over the generator events byte for byte, each body unchanged until it is stored, slots reused out of order', async () => {
    // The demo's own options (5 projects, 7 days, seed 42) at a fixed end: what `ringql gen` writes for them.
    const events = 24_000;
    const want = new Map<string, string[]>();
    for (const { source, event } of generateEvents({ events, projects: 5, days: 7, seed: 42, endUs: END_US })) {
      let lines = want.get(source);
      if (!lines) want.set(source, (lines = []));
      lines.push(serializeEvent(source, event));
    }
    const got = new Map<string, string[]>();
    const held: { body: Buffer; copy: Buffer; release: () => void }[] = [];
    let changed = 0;
    const fake = {
      ingestBodyVolatileAsync(source: string, body: Buffer): Promise<void> {
        const lines = got.get(source) ?? [];
        got.set(source, lines);
        lines.push(...body.toString('utf8').split('\n'));
        return new Promise<void>((resolve) => held.push({ body, copy: Buffer.from(body), release: resolve }));
      },
    };
    const gen = startDemoGenerator(events, END_US);
    const load = loadDemo(fake as unknown as EngineService, gen);
    let finished = false;
    void load.done.then(() => { finished = true; });
    // Store bodies newest first, a few at a time: slots come back out of order and are written again.
    while (!finished) {
      await new Promise((r) => setTimeout(r, 5));
      for (let k = 0; k < 3 && held.length > 0; k++) {
        const h = held.pop()!;
        if (!h.body.equals(h.copy)) changed++;
        h.release();
      }
    }
    expect(await load.done).toBe(events);
    expect(changed).toBe(0);
    expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
    for (const [source, lines] of want) expect(got.get(source)!.join('\n') === lines.join('\n')).toBe(true);
  }, 30_000);
});
