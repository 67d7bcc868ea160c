// The bin's early look at `ringql query`'s arguments: when they may take the column-only load (a plain
// --sql over --load files), its workers start before the heavy imports, so their start overlaps them.

import { parseArgs } from './args.ts';
import { QUERY_FLAGS } from './query-flags.ts';
import { columnWorkerCount } from './column-load.ts';
import { prestartColumnWorkers } from './column-workers.ts';

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

/** Starts the column load's workers now when `argv` may use them (column-query.ts decides later whether it does). */
export function prestartForQuery(argv: string[]): boolean {
  if (!mayLoadColumns(argv)) return false;
  prestartColumnWorkers(columnWorkerCount());
  return true;
}
