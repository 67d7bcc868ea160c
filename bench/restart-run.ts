// `npx tsx bench/restart-run.ts [events]` (default 1M; issue 17 asks 5M): loads demo-generator edge events,
// writes a checkpoint, then restarts from it in a fresh process as a server would; prints the restart time,
// its MB/s, and the checkpoint's disk bytes ÷ the NDJSON bytes (targets: ≤ 10 s at 5M, ≤ 0.3).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { edgeData } from './data.ts';
import { runChild } from './child.ts';
import { progress } from './stats.ts';

interface LoadOut { events: number; loadMs: number; ckMs: number; parts: number; diskBytes: number; ndjson: number }
interface RestoreOut { events: number; ms: number; bytes: number; rssMiB: number }

const events = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const data = edgeData(events);
const state = mkdtempSync(join(tmpdir(), 'ringql-restart-bench-'));
try {
  progress(`restart: loading ${events.toLocaleString()} events and writing a checkpoint`);
  const load = await runChild<LoadOut>('restart-child.ts', ['load', data.path, state], ['--max-old-space-size=20480']);
  progress('restart: restoring in a fresh process');
  const rest = await runChild<RestoreOut>('restart-child.ts', ['restore', data.path, state], ['--max-old-space-size=20480']);
  if (rest.events !== load.events) throw new Error(`restored ${rest.events} events, loaded ${load.events}`);
  const mib = (b: number): string => (b / 2 ** 20).toFixed(0);
  process.stdout.write([
    '| events | NDJSON MiB | checkpoint MiB | disk ÷ NDJSON | checkpoint written in | restart (load checkpoint) | restart MB/s of checkpoint | RSS after restart MiB |',
    '|---|---|---|---|---|---|---|---|',
    `| ${load.events.toLocaleString()} | ${mib(load.ndjson)} | ${mib(load.diskBytes)} | **${(load.diskBytes / load.ndjson).toFixed(3)}** | ${(load.ckMs / 1000).toFixed(1)} s | **${(rest.ms / 1000).toFixed(2)} s** | ${(rest.bytes / 2 ** 20 / (rest.ms / 1000)).toFixed(0)} | ${rest.rssMiB.toFixed(0)} |`,
  ].join('\n') + '\n');
} finally {
  rmSync(state, { recursive: true, force: true });
}
