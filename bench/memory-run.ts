// `npx tsx bench/memory-run.ts [events]`: the memory part of the bench on demo-generator edge events
// and on ~600 B small edge events, storage v2 (and v1 with --v1), each loaded in its own process;
// prints a markdown table (issue 15's target: resident bytes ÷ NDJSON bytes ≤ 0.25).

import { edgeData } from './data.ts';
import { smallEdgeData } from './small-events.ts';
import { runChild } from './child.ts';
import { progress } from './stats.ts';
import { SEMI_SPACE_MB } from '../src/cli/node-flags.ts';

interface MemOut { events: number; ndjson: number; rssGrowth: number; rssRatio: number; storeRatio: number; heapUsed: number; loadMs: number; batchMs: { p50: number; p99: number; max: number } }

const events = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const modes = process.argv.includes('--v1') ? ['v2', 'v1'] : ['v2'];
const rows: string[] = ['| data | storage | events | NDJSON MiB | resident growth MiB | resident ÷ NDJSON | store-counted ÷ NDJSON | 500-event ingest p50 / p99 / max ms |', '|---|---|---|---|---|---|---|---|'];
for (const [name, data] of [['demo edge', edgeData(events)], ['small edge (~600 B)', smallEdgeData(events)]] as const) {
  for (const mode of modes) {
    progress(`memory: ${name}, ${mode}`);
    const m = await runChild<MemOut>('memory-child.ts', [data.path, mode], ['--expose-gc', '--max-old-space-size=20480', `--max-semi-space-size=${SEMI_SPACE_MB}`]);
    const mib = (b: number): string => (b / 2 ** 20).toFixed(0);
    rows.push(`| ${name} (${Math.round(m.ndjson / m.events)} B/event) | ${mode} | ${m.events.toLocaleString()} | ${mib(m.ndjson)} | ${mib(m.rssGrowth)} | **${m.rssRatio.toFixed(3)}** | ${m.storeRatio.toFixed(3)} | ${m.batchMs.p50.toFixed(1)} / ${m.batchMs.p99.toFixed(1)} / ${m.batchMs.max.toFixed(1)} |`);
  }
}
process.stdout.write(`${rows.join('\n')}\n`);
