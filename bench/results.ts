// What one `npm run bench` run gathers, section by section (a section left out by --only is absent),
// shared by bench/run.ts, bench/targets.ts and bench/report.ts.

import type { Machine } from './machine.ts';
import type { SizeResult } from './report.ts';
import type { HeldFigures } from './events-held.ts';
import type { IdleRss } from './idle-rss.ts';
import type { CapFigures } from './memory-cap.ts';
import type { IngestFigures } from './ingest-section.ts';
import type { CliDuckFigures } from './cli-vs-duck.ts';
import type { ServingFigures } from './serving-bench.ts';
import type { CliStreamFigure } from './cli-stream-memory.ts';
import type { OverheadRow } from './prepare-overhead.ts';

export interface SectionTiming {
  name: string;
  minutes: number;
  load: { start: string; end: string };
  error?: string;
}

export interface RunResults {
  quick: boolean;
  machine: Machine;
  sections: SectionTiming[];
  /** Demo-generator edge events, one result per size (the last is the largest). */
  engine?: SizeResult[];
  /** ~480 B small edge events (bench/small-events.ts). */
  small?: SizeResult;
  held?: HeldFigures;
  idle?: IdleRss;
  cap?: CapFigures;
  ingest?: IngestFigures;
  cli?: CliDuckFigures;
  serving?: ServingFigures;
  cliStream?: CliStreamFigure[];
  prepare?: OverheadRow[];
  /** The cluster bench's own Markdown (bench/cluster-report.ts). */
  cluster?: string;
}
