// The bin's early look at `ringql query`'s arguments: when they may take the column-only load (a plain
// --sql over --load files), its workers start before the heavy imports and begin on the first file's
// chunks, so their start and first transforms overlap the main thread's (the load takes what matches).

import { parseArgs } from './args.ts';
import { QUERY_FLAGS } from './query-flags.ts';
import { CHUNK_BYTES, chunkJob, columnWorkerCount, firstChunks, sizeAndCuts } from './column-load.ts';
import { prestartColumnWorkers, speculateColumnJobs } from './column-workers.ts';
import { limitsConfig } from '../core/config.ts';
import { SOURCES } from '../store/sources.ts';
import { nowMicros, parseTimestamp } from '../core/time.ts';

/** Whether `argv` (of `ringql query`) may run the column-only load: files, a plain --sql, no explain or help. */
export function mayLoadColumns(argv: string[]): boolean {
  let args: Map<string, string[]>;
  try {
    args = parseArgs(argv, QUERY_FLAGS);
  } catch {
    return false; // queryCommand reports it
  }
  return args.has('load') && args.has('sql') && !args.has('endpoint') && !args.has('explain') && !args.has('help');
}

/** What the prestart decided: the command's clock (the speculated chunks filled missing timestamps with it). */
export interface Prestart {
  nowUs: number;
}

/**
 * Starts the column load's workers now when `argv` may use them (column-query.ts decides later whether it
 * does), and posts them the first chunks of the first --load file with that source's settings, as the
 * load would. Any doubt (a malformed flag or variable, an unknown source, an unreadable or small file)
 * only skips the speculation: queryCommand judges and reports everything itself.
 */
export function prestartForQuery(argv: string[]): Prestart | null {
  if (!mayLoadColumns(argv)) return null;
  const count = columnWorkerCount();
  prestartColumnWorkers(count);
  const args = parseArgs(argv, QUERY_FLAGS);
  const nowArg = args.get('now')?.[0];
  const nowUs = nowArg === undefined ? nowMicros() : parseTimestamp(nowArg) ?? nowMicros();
  try {
    const spec = args.get('load')![0]!, eq = spec.indexOf('=');
    const def = SOURCES.find((d) => d.name === spec.slice(0, eq));
    if (eq <= 0 || def === undefined) return { nowUs };
    const file = spec.slice(eq + 1), limits = limitsConfig(process.env);
    const cuts = sizeAndCuts(file, CHUNK_BYTES);
    // Only a file with a chunk for every worker: a load of fewer chunks starts fewer workers.
    if (cuts.length - 1 < count) return { nowUs };
    const settings = { projectPath: def.projectPath, maxEventDepth: limits.maxEventDepth, maxStringBytes: limits.maxFieldBytes, fillUs: nowUs };
    speculateColumnJobs(Array.from({ length: Math.min(cuts.length - 1, firstChunks(count)) }, (_, k) => chunkJob(k, file, cuts, settings)));
  } catch {
    // queryCommand reads the same flags, variables and file, and reports what is wrong
  }
  return { nowUs };
}
