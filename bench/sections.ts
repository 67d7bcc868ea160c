// The sections of `npm run bench`, each a function filling its part of the run's results; sizes and
// durations for the full run and for --quick (every section, small).

import { edgeData, type DataFile } from './data.ts';
import { smallEdgeData } from './small-events.ts';
import { runChild } from './child.ts';
import { progress } from './stats.ts';
import type { DuckOut, EngineOut, SizeResult } from './report.ts';
import type { RunResults } from './results.ts';
import { eventsHeld } from './events-held.ts';
import { idleRss } from './idle-rss.ts';
import { memoryCap } from './memory-cap.ts';
import { ingestSection } from './ingest-section.ts';
import { cliVsDuck } from './cli-vs-duck.ts';
import { servingBench } from './serving-bench.ts';
import { cliStreamMemory } from './cli-stream-memory.ts';
import { measurePrepareOverhead } from './prepare-overhead.ts';
import { clusterBench } from './cluster-run.ts';
import { renderCluster } from './cluster-report.ts';
import { writeFileSync } from 'node:fs';
import { SEMI_SPACE_MB } from '../src/cli/node-flags.ts';

const HEAP_MB = 20_480;
/** The server's young-generation cap (npm start), so ringql's resident figures are the server's. */
const SEMI_SPACE = `--max-semi-space-size=${SEMI_SPACE_MB}`;

/** ringql in its own process, then DuckDB in its own, over the same file. */
async function enginePair(data: DataFile, quick: boolean): Promise<SizeResult> {
  const size = data.events;
  progress(`  ${size.toLocaleString()} events: ringql in-process`);
  const engine = await runChild<EngineOut>('engine-child.ts', [data.path, String(size), String(quick ? 300 : 1000)], ['--expose-gc', `--max-old-space-size=${HEAP_MB}`, SEMI_SPACE]);
  progress(`  ${size.toLocaleString()} events: duckdb peer`);
  const duck = await runChild<DuckOut>('duck-child.ts', [data.path, String(quick ? 5 : 15), engine.projects.big, engine.projects.median]);
  return { size, data, engine, duck, memory: engine.memory };
}

export type SectionFn = (r: RunResults, quick: boolean) => Promise<void>;

/**
 * Alternated runs (ringql, DuckDB all cores, DuckDB 1 thread) of the CLI row, whose medians it compares: this
 * VM's speed moves by ±20 % within minutes (bench/CLI.md round 13), and 2 runs gave a median of one minute.
 */
const CLI_REPS = 5;

export const SECTIONS: Record<string, { what: string; run: SectionFn }> = {
  engine: { what: 'ringql vs DuckDB on demo events (issues 14, 15)', run: async (r, quick) => {
    r.engine = [];
    for (const size of quick ? [200_000] : [1_000_000, 5_000_000]) r.engine.push(await enginePair(edgeData(size), quick));
  } },
  small: { what: 'ringql vs DuckDB on ~480 B edge events (issue 15)', run: async (r, quick) => {
    r.small = await enginePair(smallEdgeData(quick ? 200_000 : 5_000_000), quick);
  } },
  held: { what: 'edge events held in one process (issue 15)', run: async (r, quick) => { r.held = await eventsHeld(quick ? 1_000_000 : 30_000_000); } },
  idle: { what: 'idle RSS of an empty server (issue 15)', run: async (r) => { r.idle = await idleRss(); } },
  cap: { what: 'RINGQL_MAX_MEMORY under endless ingest (issue 15)', run: async (r, quick) => {
    r.cap = await memoryCap(quick ? { capBytes: 64 * 2 ** 20, maxSeconds: 45 } : { capBytes: 512 * 2 ** 20, maxSeconds: 300 });
  } },
  ingest: { what: 'ingest in-process and over HTTP, demo load (issue 16)', run: async (r, quick) => { r.ingest = await ingestSection(quick ? 10_000 : 60_000); } },
  cli: { what: '`ringql query` over ~1 GB NDJSON vs DuckDB (issue 16)', run: async (r, quick) => { r.cli = await cliVsDuck(quick ? 20_000 : 460_000, quick ? 1 : CLI_REPS); } },
  serving: { what: 'HTTP vs raw uWS, p99, streamed output (issue 18)', run: async (r, quick) => {
    r.serving = await servingBench(quick ? 2 : 6, quick ? 1 : 3);
    r.cliStream = (await cliStreamMemory(quick ? 1 : 2)).runs;
  } },
  prepare: { what: 'per-request planning overhead (issue 14)', run: async (r, quick) => { r.prepare = await measurePrepareOverhead(quick ? 200 : 500); } },
  cluster: { what: '3 nats-server + 3 ringql nodes', run: async (r, quick) => {
    const text = renderCluster(await clusterBench(quick));
    if (!quick) writeFileSync(new URL('./CLUSTER-RUN.md', import.meta.url), text);
    r.cluster = text;
  } },
};
