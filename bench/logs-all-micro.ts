// The in-process cost of one computed logs.all answer (issue 18): service.run with iso_timestamp_start
// rotated so no cache answers, CPU µs per request (best of rounds), and a body checksum so a change
// that must not alter bytes can be seen not to.   Run: node --import tsx bench/logs-all-micro.ts [rounds] [n] [--small]
// (--small: 100k small edge events of bench/small-events.ts, the busiest project, instead of demo events).

import { createHash } from 'node:crypto';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import { createQueryService } from '../src/endpoints/service.ts';
import { generateEvents } from '../src/gen/generate.ts';
import * as pool from '../src/core/body-pool.ts';
import { rng, smallEvent } from './small-events.ts';

const SMALL = process.argv.includes('--small');
const args = process.argv.slice(2).filter((a) => a !== '--small');
const ROUNDS = Number(args[0] ?? 5);
const N = Number(args[1] ?? 2000);
const PROJECT = SMALL ? 'proj0000' : 'default';

/** The events to load, by source. */
function* events(): Generator<{ source: string; event: Record<string, unknown> }> {
  if (!SMALL) { yield* generateEvents({ events: 100_000, projects: 5, days: 7, seed: 42, endUs: Date.UTC(2026, 10, 25) * 1000 }); return; }
  const r = rng(11);
  for (let i = 0; i < 100_000; i++) yield { source: 'edge.logs.prod', event: smallEvent(r, i, 100_000) };
}

async function main(): Promise<void> {
  const service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, cache: { sweepMs: 0 } });
  const batches = new Map<string, unknown[]>();
  for (const { source, event } of events()) {
    let b = batches.get(source);
    if (!b) batches.set(source, (b = []));
    b.push(event);
    if (b.length >= 1000) service.ingestVolatile(source, b.splice(0));
  }
  for (const [source, b] of batches) if (b.length) service.ingestVolatile(source, b);
  // Sealing and compression run off the request path; let them finish before measuring.
  await new Promise((r) => setTimeout(r, 2000));
  let i = 0;
  const once = async (): Promise<Buffer> => {
    const start = `2020-01-01T00:00:00.${String(++i % 1_000_000).padStart(6, '0')}Z`;
    const r = await service.run({ endpoint: 'logs.all', params: new Map([['project', PROJECT], ['iso_timestamp_start', start]]), redactHeader: false });
    // As Exchange.send does once uWS copied the bytes (a tree without the pool has no such module member).
    const recycle = (pool as { recycleBody?: (b: Buffer) => void }).recycleBody;
    if ((r as { recyclable?: boolean }).recyclable && recycle) recycle(r.body);
    return r.body;
  };
  const first = Buffer.from(await once());
  process.stdout.write(`body ${first.length} B, sha256 ${createHash('sha256').update(first).digest('hex').slice(0, 16)}\n`);
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const c0 = process.cpuUsage();
    for (let k = 0; k < N; k++) await once();
    const c = process.cpuUsage(c0);
    const us = (c.user + c.system) / N;
    best = Math.min(best, us);
    process.stdout.write(`round ${round + 1}: ${us.toFixed(1)} CPU µs per request\n`);
  }
  process.stdout.write(`best: ${best.toFixed(1)} CPU µs per request\n`);
  service.close();
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`logs.all micro failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
