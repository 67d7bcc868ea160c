// `ringql query`: loads NDJSON files into an in-process store and runs a built-in endpoint (with
// --sql/--lql as its sandbox query) or a plain query over the sources; prints the HTTP body
// (JSON, or NDJSON/CSV with --format).

import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { RingqlError, internalErrorBody } from '../core/errors.ts';
import { parseTimestamp, nowMicros } from '../core/time.ts';
import { Store, defaultStoreConfig } from '../store/store.ts';
import { createQueryService, type EngineService } from '../endpoints/service.ts';
import { TransformThread } from '../store/transform-thread.ts';
import { compressOffThread } from '../store/block-compressor.ts';
import { compressionSettled } from './compression-settled.ts';
import { loadNdjson, LoadError } from './ndjson-load.ts';
import { columnQuery } from './column-query.ts';
import { discardPrestartedWorkers } from './column-workers.ts';
import { planRequest, resolveRequest } from '../endpoints/execute.ts';
import { explainSqlBoth, explainTarget, planSqlOnCatalog } from '../endpoints/query-sql.ts';
import { explainBoth } from '../exec/physical/explain-physical.ts';
import { runToJsonSliced } from '../exec/run.ts';
import { ExecContext } from '../exec/context.ts';
import { budgetSettings } from '../core/config.ts';
import { BodyPrinter, type Io } from './body-printer.ts';
import { parseArgs, UsageError } from './args.ts';
import { QUERY_FLAGS } from './query-flags.ts';
import { OUTPUT_FORMATS } from '../exec/sinks/row-sink.ts';

export const QUERY_USAGE = `usage: ringql query [--endpoint <name>] [--sql <text|@file>] [--lql <text>] [--param k=v]...
                    [--load <source>=<file.ndjson>]... [--now <ISO>] [--explain]
                    [--format json|ndjson|csv]`;

export type { Io } from './body-printer.ts';

/** The bin's output: process.stdout and stderr (bench/cli-memory-child.ts counts through it). */
export const stdio: Io = {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  outReady: async () => { if (process.stdout.writableNeedDrain) await once(process.stdout, 'drain'); },
  outBytes: (bytes, written) => process.stdout.write(bytes, () => written()),
};

/**
 * The decoded-block cache of a one-shot query (the server's is up to 32 MiB, and a 100k-row scan fills
 * it): a scan decodes each block once, so 64 blocks of 64 KiB are enough, and still serve a sort's
 * interleaved reads of a few dozen blocks.
 */
export const CLI_BLOCK_CACHE_BYTES = 4 * 1024 * 1024;

/** For tests: `columnLoad: false` keeps every query on the full load (to compare the two); the column load's workers and chunk size; told when the column load answered. */
export interface QueryOptions {
  columnLoad?: boolean;
  columnWorkers?: number;
  chunkBytes?: number;
  onColumnLoad?: () => void;
  /** The command's clock when --now is absent (the bin's prestart read it: its speculated chunks filled missing timestamps with it). */
  nowUs?: number;
}

export async function queryCommand(argv: string[], io: Io = stdio, opts: QueryOptions = {}): Promise<number> {
  let args: Map<string, string[]>;
  try {
    args = parseArgs(argv, QUERY_FLAGS);
  } catch (err) {
    if (err instanceof UsageError) { io.err(`${err.message}\n${QUERY_USAGE}\n`); return 2; }
    throw err;
  }
  if (args.has('help')) { io.out(QUERY_USAGE + '\n'); return 0; }
  const one = (k: string): string | undefined => args.get(k)?.[0];
  const formatArg = one('format') ?? 'json';
  const format = OUTPUT_FORMATS.find((f) => f === formatArg.toLowerCase());
  if (!format) { io.err(`--format must be one of ${OUTPUT_FORMATS.join(', ')}; got "${formatArg}"\n`); return 2; }
  let now = opts.nowUs ?? nowMicros();
  const nowArg = one('now');
  if (nowArg !== undefined) {
    const t = parseTimestamp(nowArg);
    if (t === null) { io.err(`--now "${nowArg}" is not an ISO 8601 timestamp\n`); return 2; }
    now = t;
  }
  const params = new Map<string, string>();
  for (const p of args.get('param') ?? []) {
    const eq = p.indexOf('=');
    if (eq <= 0) { io.err(`--param needs key=value, got "${p}"\n`); return 2; }
    params.set(p.slice(0, eq), p.slice(eq + 1));
  }
  let sql = one('sql');
  if (sql?.startsWith('@')) {
    try { sql = readFileSync(sql.slice(1), 'utf8'); } catch (err) { io.err(`Cannot read ${sql.slice(1)}: ${(err as Error).message}\n`); return 2; }
  }
  const lql = one('lql');
  const endpoint = one('endpoint');
  if (!endpoint && !sql) { io.err(`Give --endpoint, --sql, or both\n${QUERY_USAGE}\n`); return 2; }
  if (!endpoint && lql) { io.err('--lql needs --endpoint (LQL reads an endpoint\'s CTEs)\n'); return 2; }

  // A plain query that reads only timestamp and project loads the files without row bytes (column-query.ts).
  if (opts.columnLoad !== false && !endpoint && !args.has('explain') && explainTarget(sql!) === null) {
    const sqlOpts = { params: new Map<string, string | null>(params), nowUs: now };
    try {
      const code = await columnQuery({
        sql: sql!, sqlOpts, loads: args.get('load') ?? [], format, err: io.err, printer: new BodyPrinter(io), workers: opts.columnWorkers, chunkBytes: opts.chunkBytes,
      });
      if (code !== null) { opts.onColumnLoad?.(); return code; }
    } catch (err) {
      return reportError(err, io);
    }
  }
  // The full load: workers the bin prestarted for a column load (and the chunks it gave them) would only take its CPU.
  await discardPrestartedWorkers();
  const store = new Store({ ...defaultStoreConfig(), blockCacheBytes: CLI_BLOCK_CACHE_BYTES });
  const service = await createQueryService({ store, stateDir: null, nowMicros: () => now, cache: { sweepMs: 0 }, lazyBuiltins: true });
  try {
    const loadCode = await loadFiles(args.get('load') ?? [], store, service, io);
    if (loadCode !== null) return loadCode;
    if (endpoint) {
      if (sql) params.set('sql', sql);
      if (lql) params.set('lql', lql);
      if (args.has('explain')) {
        const prep = service.resolve(endpoint);
        io.out(explainBoth(planRequest(prep, resolveRequest(prep, params), service.catalog, now).physical) + '\n');
        return 0;
      }
      const printer = new BodyPrinter(io);
      const req = { endpoint, params, redactHeader: false, stream: printer };
      const r = await service.run(format === 'json' ? req : { ...req, accepted: format });
      printer.end(r.body, r.format ?? 'json');
      return 0;
    }
    const sqlOpts = { params: new Map<string, string | null>(params), nowUs: now };
    if (args.has('explain') || explainTarget(sql!) !== null) { io.out(explainSqlBoth(service.catalog, sql!, sqlOpts) + '\n'); return 0; }
    const plan = planSqlOnCatalog(service.catalog, sql!, sqlOpts).physical;
    const printer = new BodyPrinter(io);
    const r = await runToJsonSliced(plan, { maxRows: null, format, stream: printer }, new ExecContext(budgetSettings(process.env)));
    printer.end(r.body, format);
    return 0;
  } catch (err) {
    return reportError(err, io);
  } finally {
    service.close();
  }
}

/**
 * Loads each `<source>=<file>` into the store through the transform thread; once the last is in, waits
 * for its blocks' compression and stops the thread (the query does not need it, and its heap would sit
 * under the query's memory). A usage error's exit code, else null.
 */
async function loadFiles(specs: string[], store: Store, service: EngineService, io: Io): Promise<number | null> {
  let transformer: TransformThread | null = null;
  try {
    for (let i = 0; i < specs.length; i++) {
      const spec = specs[i]!, eq = spec.indexOf('=');
      if (eq <= 0) { io.err(`--load needs <source>=<file.ndjson>, got "${spec}"\n`); return 2; }
      const source = spec.slice(0, eq), file = spec.slice(eq + 1);
      if (!store.source(source)) { io.err(`--load: unknown source "${source}"; sources: ${store.sources().map((s) => s.def.name).join(', ')}\n`); return 2; }
      transformer ??= await startTransformThread(service);
      const r = await loadNdjson(file, (body, parse) => service.ingestBodyVolatileAsync(source, body, true, parse), io);
      if (i === specs.length - 1) {
        // The query then reads a settled store: not raw blocks whose compression (and freeing) overlaps it.
        await compressionSettled();
        await stopTransformThread(transformer);
        transformer = null;
      }
      io.err(`loaded ${r.stored + r.dropped} events from ${file} into ${source}${r.dropped ? ` (${r.dropped} older than retention dropped)` : ''}\n`);
    }
    return null;
  } finally {
    if (transformer) await stopTransformThread(transformer);
  }
}

/** A query error's body on stdout, a load error on stderr, anything else as an internal error; exit code 1. */
function reportError(err: unknown, io: Io): number {
  if (err instanceof RingqlError) { io.out(JSON.stringify(err.toBody()) + '\n'); return 1; }
  if (err instanceof LoadError) { io.err(err.message + '\n'); return 1; }
  io.err(`${(err as Error).stack ?? String(err)}\n`);
  io.out(JSON.stringify(internalErrorBody()) + '\n');
  return 1;
}

/** The server's second thread for loading files: bodies are transformed and sealed blocks compressed there. */
async function startTransformThread(service: EngineService): Promise<TransformThread> {
  const t = await TransformThread.start();
  service.attachTransformer(t);
  compressOffThread((raw, codec) => t.compress(raw, codec));
  return t;
}

/** Blocks sealed from now on are compressed on this thread again; the other one exits. */
async function stopTransformThread(t: TransformThread): Promise<void> {
  compressOffThread(null);
  await t.close();
}
