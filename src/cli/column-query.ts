// `ringql query --sql` through the column-only load when the query allows it (column-only.ts): loads the
// files without row bytes, then plans and runs the query as the full path does. null: the full path runs.

import { Store, defaultStoreConfig } from '../store/store.ts';
import type { StoreConfig } from '../store/types.ts';
import { createQueryService, type EngineService } from '../endpoints/service.ts';
import { planSqlOnCatalog } from '../endpoints/query-sql.ts';
import { runToJsonSliced } from '../exec/run.ts';
import { ExecContext } from '../exec/context.ts';
import { budgetSettings } from '../core/config.ts';
import type { OutputFormat } from '../exec/sinks/row-sink.ts';
import type { BodyStream } from '../exec/body-stream.ts';
import { readsOnlyBytelessColumns } from './column-only.ts';
import { loadColumns } from './column-load.ts';

export interface ColumnQuery {
  sql: string;
  sqlOpts: { params: Map<string, string | null>; nowUs: number };
  /** `<source>=<file>` specs, as given. */
  loads: readonly string[];
  format: OutputFormat;
  err: (s: string) => void;
  /** Where the result goes (the caller's printer), and its last piece. */
  printer: BodyStream & { end(last: Buffer, format: OutputFormat): void };
  /** Tests: worker count and chunk size (default: the cores, CHUNK_BYTES). */
  workers?: number;
  chunkBytes?: number;
}

/**
 * Rows per sealed segment of the column store (the full store: 4096); answers do not depend on it. 1M:
 * a file of up to ~1M events (the 1 GB bench file: 460k) is never sealed, whose seals (ts sort, row
 * blocks, segment build) cost ~0.3 CPU s of 3.9 at 256k; the open segment's JS arrays (~70 B/row) stay
 * under ~70 MB for bigger files.
 */
export const COLUMN_SEGMENT_ROWS = 1 << 20;

/** The sources and files of `loads`; null when one is malformed or names no source (the full path reports it). */
function parseLoads(loads: readonly string[], store: Store): { source: string; file: string }[] | null {
  const out: { source: string; file: string }[] = [];
  for (const spec of loads) {
    const eq = spec.indexOf('=');
    if (eq <= 0 || !store.source(spec.slice(0, eq))) return null;
    out.push({ source: spec.slice(0, eq), file: spec.slice(eq + 1) });
  }
  return out;
}

/**
 * Whether the full load could have evicted anything the column load kept (by a source's byte bound or the
 * memory budget), which would change answers. `rowBytes`: the row bytes the full load would hold per source.
 */
function fullLoadMightEvict(config: StoreConfig, rowBytes: ReadonlyMap<string, number>): boolean {
  let total = 0;
  for (const [source, bytes] of rowBytes) {
    const maxBytes = config.sourceLimits?.get(source)?.maxBytes ?? config.maxBytes;
    if (bytes * 1.01 + (1 << 20) > maxBytes) return true;
    total += bytes;
  }
  return config.maxMemory !== undefined && 2 * total + (1 << 30) > config.maxMemory;
}

/** Plans `q.sql` on an empty store: a plan reading only byteless columns (and no explain) chooses the column load. */
function columnPathPlan(service: EngineService, q: ColumnQuery): boolean {
  try {
    return readsOnlyBytelessColumns(planSqlOnCatalog(service.catalog, q.sql, q.sqlOpts).logical);
  } catch {
    return false; // planned again, and its error reported, by the full path (columns known only once loaded, say)
  }
}

/** Runs the query through the column-only load; the exit code, or null when the full path must run it. */
export async function columnQuery(q: ColumnQuery): Promise<number | null> {
  if (q.loads.length === 0) return null;
  const config = defaultStoreConfig();
  // No hot (dictionary) paths: the queries this path takes read none. Rows without bytes are sealed in
  // big segments: the seals (sort, blocks, merges) were most of this thread's work at 4096 rows each.
  const store = new Store({ ...config, segmentRows: COLUMN_SEGMENT_ROWS }, {});
  const service = await createQueryService({ store, stateDir: null, nowMicros: () => q.sqlOpts.nowUs, cache: { sweepMs: 0 }, lazyBuiltins: true });
  try {
    const loads = parseLoads(q.loads, store);
    if (!loads || !columnPathPlan(service, q)) return null;
    const rowBytes = new Map<string, number>();
    for (const { source, file } of loads) {
      const target = {
        source: store.source(source)!, nowUs: q.sqlOpts.nowUs,
        ingestEvents: (events: unknown[]) => service.ingestVolatile(source, events),
        checkCount: (n: number) => { service.checkBatch(source, new Array<unknown>(n)); },
      };
      const r = await loadColumns(file, target, { err: q.err }, q.workers, q.chunkBytes);
      rowBytes.set(source, (rowBytes.get(source) ?? 0) + r.rowBytes);
      if (target.source.evicted > 0 || fullLoadMightEvict(config, rowBytes)) {
        q.err(`ringql: ${file} is too big to load without row bytes and answer as the full load would; loading it again with them\n`);
        return null;
      }
      q.err(`loaded ${r.stored + r.dropped} events from ${file} into ${source}${r.dropped ? ` (${r.dropped} older than retention dropped)` : ''}\n`);
    }
    const plan = planSqlOnCatalog(service.catalog, q.sql, q.sqlOpts).physical;
    const r = await runToJsonSliced(plan, { maxRows: null, format: q.format, stream: q.printer }, new ExecContext(budgetSettings(process.env)));
    q.printer.end(r.body, q.format);
    return 0;
  } finally {
    service.close();
  }
}
