// How long a checkpoint holds the event loop (issue 18): a store with N generated events whose sealed
// blocks still wait for compression (as right after an ingest burst) is checkpointed while a 1 ms
// heartbeat runs; prints the longest heartbeat gap and the CPU time in it, with the snapshot compressing
// the backlog inline (`settle: none`, as before) and after the compressor's slices caught up.
//   Run: node --import tsx bench/checkpoint-pauses.ts [events] [rounds]

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Checkpointer } from '../src/durable/checkpointer.ts';
import { checkpointSources } from '../src/durable/durability.ts';
import { Wal } from '../src/durable/wal.ts';
import { generateEvents } from '../src/gen/generate.ts';
import { compressionCaughtUp, compressorStats, compressPendingNow } from '../src/store/block-compressor.ts';
import { Store, defaultStoreConfig } from '../src/store/store.ts';

const EVENTS = Number(process.argv[2] ?? 30_000);
const ROUNDS = Number(process.argv[3] ?? 3);

function storeOf(seed: number): Store {
  const store = new Store(defaultStoreConfig({}));
  const batches = new Map<string, Record<string, unknown>[]>();
  for (const { source, event } of generateEvents({ events: EVENTS, projects: 5, days: 7, seed, endUs: Date.now() * 1000 })) {
    let b = batches.get(source);
    if (!b) batches.set(source, (b = []));
    b.push(event as Record<string, unknown>);
    if (b.length >= 1000) store.source(source)!.ingest(b.splice(0), Date.now() * 1000);
  }
  for (const [source, b] of batches) if (b.length) store.source(source)!.ingest(b, Date.now() * 1000);
  return store;
}

/** The longest heartbeat gap (wall ms) while `work` runs, and the process CPU ms within it. */
async function longestGap(work: () => Promise<unknown>): Promise<{ gapMs: number; cpuMs: number; totalMs: number }> {
  let last = performance.now(), lastCpu = process.cpuUsage(), gapMs = 0, cpuMs = 0;
  const beat = setInterval(() => {
    const now = performance.now(), cpu = process.cpuUsage(lastCpu);
    if (now - last > gapMs) { gapMs = now - last; cpuMs = (cpu.user + cpu.system) / 1000; }
    last = now;
    lastCpu = process.cpuUsage();
  }, 1);
  const t0 = performance.now();
  await work();
  const totalMs = performance.now() - t0;
  clearInterval(beat);
  return { gapMs, cpuMs, totalMs };
}

async function main(): Promise<void> {
  const load = (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  process.stdout.write(`${EVENTS} events, load average ${load}\n\n| round | snapshot | raw backlog at start | longest loop stall ms (process CPU in it) | checkpoint ms |\n|---|---|---|---|---|\n`);
  for (let r = 0; r < ROUNDS; r++) {
    for (const settle of [null, () => compressionCaughtUp()]) {
      compressPendingNow();
      const store = storeOf(r + 1);
      // One loop turn: the compressor's first slice brings the backlog under its bound, as in the server.
      await new Promise((res) => setTimeout(res, 5));
      const backlog = compressorStats().pendingBytes;
      const dir = mkdtempSync(join(tmpdir(), 'ringql-ckpause-'));
      const wal = Wal.open({ dir: join(dir, 'wal'), fsync: 'interval', fsyncMs: 100 }, []);
      const ck = new Checkpointer(join(dir, 'checkpoint'), wal, () => {}, settle);
      const g = await longestGap(() => ck.checkpoint(checkpointSources(store)));
      await wal.close();
      process.stdout.write(`| ${r + 1} | ${settle ? 'after the compressor caught up' : 'compresses the backlog inline'} | ${(backlog / 2 ** 20).toFixed(1)} MiB | **${g.gapMs.toFixed(1)}** (${g.cpuMs.toFixed(1)}) | ${g.totalMs.toFixed(0)} |\n`);
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
