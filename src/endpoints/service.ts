// The QueryService the HTTP layer and the CLI use: endpoints prepared once (built-ins from data/,
// created ones from the state directory), requests run through the result cache, ingest into
// the store, management with validation and atomic persistence.

import { randomBytes, randomUUID } from 'node:crypto';
import { RingqlError } from '../core/errors.ts';
import { nowMicros } from '../core/time.ts';
import { tickNowMicros } from '../core/tick-clock.ts';
import type { Store } from '../store/store.ts';
import type { Catalog } from '../plan/catalog.ts';
import type { Budget } from '../exec/context.ts';
import { applyInput, isUuid, type EndpointDef } from './definition.ts';
import { loadEndpoint, prepareEndpoint, type PreparedEndpoint } from './prepare.ts';
import { resolveRequest, type ResolvedRequest } from './execute.ts';
import { openLiveFeed } from './live-feed.ts';
import { catalogFromStore } from './store-catalog.ts';
import { deleteStored, loadBuiltins, loadStored, removeTempFiles, saveStored, type StoredFile } from './endpoint-files.ts';
import { ResultCache, type CacheConfig } from '../cache/result-cache.ts';
import { QueryGate } from '../cache/query-gate.ts';
import type { Wal } from '../durable/wal.ts';
import type { RecoveryReport } from '../durable/wal-recovery.ts';
import { RECORD_BATCH, RECORD_RAW_BATCH } from '../durable/record-frame.ts';
import { encodeBatch, rawBatchParts, stampBatch } from '../durable/batch-record.ts';
import { limitsFromEnv, type Limits } from '../core/limits.ts';
import { budgetSettings } from '../core/config.ts';
import type {
  EndpointInfo, EndpointInput, IngestResponse, LiveFeed, OutputFormat, QueryService, RunRequest, RunResponse, ServiceFigures, SourceInfo,
} from './service-types.ts';
import type { SchemaField } from '../store/types.ts';
import type { SourceStore } from '../store/source-store.ts';

export interface ServiceOptions {
  store: Store;
  /** Where created endpoints are kept; null = in memory only (CLI). */
  stateDir: string | null;
  nowMicros?: () => number;
  budget?: Budget;
  cache?: Partial<CacheConfig>;
  /** Defaults to limitsFromEnv(). */
  limits?: Limits;
  /** Where start-up notes go (skipped or not yet binding stored endpoints); defaults to stderr. */
  log?: (line: string) => void;
}

export async function createQueryService(opts: ServiceOptions): Promise<QueryService & EngineService> {
  const svc = new EngineService(opts);
  svc.load();
  return svc;
}

export class EngineService implements QueryService {
  readonly catalog: Catalog;
  readonly now: () => number;
  private readonly byId = new Map<string, PreparedEndpoint>();
  private readonly byName = new Map<string, string>();
  private readonly budget: Budget;
  private readonly limits: Limits;
  readonly cache: ResultCache;
  /** Admission for computed queries (SPEC §11). */
  readonly gate: QueryGate;
  private wal: Wal | null = null;
  /** The last checkpoint and the one this start was restored from (main.ts hands it over). */
  private checkpointStats: (() => Record<string, unknown>) | null = null;
  private recovery: RecoveryReport | null = null;
  private readonly started = Date.now();
  private readonly ingestListeners = new Set<(source: string) => void>();
  /** runCached's resolved requests per parameter map (validation is pure: same endpoint, values and format, same result). */
  private readonly resolvedByParams = new WeakMap<ReadonlyMap<string, string>, { endpoint: string; prep: PreparedEndpoint; accepted: OutputFormat | null; resolved: ResolvedRequest }>();

  constructor(private readonly opts: ServiceOptions) {
    this.catalog = catalogFromStore(opts.store);
    this.now = opts.nowMicros ?? nowMicros;
    this.budget = opts.budget ?? budgetSettings(process.env);
    this.limits = opts.limits ?? limitsFromEnv();
    this.gate = new QueryGate(this.limits.maxConcurrentQueries);
    // Hits read the timer-ticked clock unless a test gave its own.
    this.cache = new ResultCache(opts.cache ?? {}, () => this.now(), this.gate, opts.nowMicros ?? tickNowMicros);
    // The result cache counts against the process memory budget (RINGQL_MAX_MEMORY).
    opts.store.countExternal(() => this.cache.stats().bytes);
  }

  /**
   * Prepares the built-ins (any failure stops the start: it is a bug) and every stored endpoint. A
   * stored endpoint never stops the start: one that cannot be read or parsed, or whose name is taken,
   * is skipped and reported; one that does not bind yet (a field only events carry) is kept.
   */
  load(): void {
    for (const { def, file } of loadBuiltins()) this.installBuiltin(def, file);
    const dir = this.opts.stateDir;
    if (!dir) return;
    const log = this.opts.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
    const removed = removeTempFiles(dir);
    if (removed) log(`ringql: removed ${removed} leftover temporary endpoint file(s) (*.tmp) in ${dir}, from writes a crash interrupted`);
    for (const stored of loadStored(dir)) {
      const note = this.installStored(stored);
      if (note) log(note);
    }
  }

  private installBuiltin(def: EndpointDef, file: string): void {
    let prep: PreparedEndpoint;
    try {
      prep = prepareEndpoint(def, this.catalog, this.now());
    } catch (err) {
      if (err instanceof RingqlError) throw new Error(`Endpoint ${def.name} (${where(file, err)}) does not prepare: ${err.message}`);
      throw err;
    }
    if (this.byName.has(def.name.toLowerCase())) throw new Error(`Endpoint name ${def.name} (${file}) is used twice`);
    this.byId.set(def.id, prep);
    this.byName.set(def.name.toLowerCase(), def.id);
  }

  /** Installs one stored endpoint if it can be; returns a line to log, or null. */
  private installStored(stored: StoredFile): string | null {
    const skip = (why: string): string => `ringql: ERROR: stored endpoint ${why}; it is skipped (not served) until the file is fixed or deleted and ringql restarted`;
    if (stored.error !== undefined) return skip(`${stored.file} cannot be read: ${stored.error}`);
    const { def, file } = stored;
    if (this.byName.has(def.name.toLowerCase())) return skip(`${def.name} (${file}) has a name another endpoint uses`);
    if (this.byId.has(def.id)) return skip(`${def.name} (${file}) has an id another endpoint uses`);
    let loaded: ReturnType<typeof loadEndpoint>;
    try {
      loaded = loadEndpoint(def, this.catalog, this.now);
    } catch (err) {
      if (err instanceof RingqlError) return skip(`${def.name} (${where(file, err)}) does not parse: ${err.message}`);
      throw err;
    }
    this.byId.set(def.id, loaded.prep);
    this.byName.set(def.name.toLowerCase(), def.id);
    const e = loaded.bindError;
    return e ? `ringql: stored endpoint ${def.name} (${file}) does not bind yet (${e.code}: ${e.message}); it is served, and its requests answer that error until the data holds what it reads` : null;
  }

  resolve(idOrName: string): PreparedEndpoint {
    const id = isUuid(idOrName) ? idOrName.toLowerCase() : this.byName.get(idOrName.toLowerCase());
    const prep = id ? this.byId.get(id) : undefined;
    if (!prep) throw new RingqlError('endpoint_not_found', `No endpoint with id or name "${idOrName.slice(0, 200)}"`);
    return prep;
  }

  async run(req: RunRequest): Promise<RunResponse> {
    const prep = this.resolve(req.endpoint);
    const resolved = resolveRequest(prep, req.params, this.limits, req.accepted === undefined ? 'json' : req.accepted);
    const redact = prep.def.redact_pii || req.redactHeader;
    const r = await this.cache.run(prep, resolved, redact, { catalog: this.catalog, budget: this.budget, gate: this.gate }, req.stream);
    return described(r, prep, redact, resolved.format);
  }

  runCached(req: RunRequest): RunResponse | null {
    const accepted = req.accepted === undefined ? 'json' : req.accepted;
    // The hit path passes one parameter map per URL: what it resolved to is reused while the name still
    // leads to the same endpoint object (an update or delete replaces or removes it from byId).
    let memo = this.resolvedByParams.get(req.params);
    if (!memo || memo.endpoint !== req.endpoint || memo.accepted !== accepted || this.byId.get(memo.prep.def.id) !== memo.prep) {
      const id = isUuid(req.endpoint) ? req.endpoint.toLowerCase() : this.byName.get(req.endpoint.toLowerCase());
      const prep = id ? this.byId.get(id) : undefined;
      if (!prep) return null;
      try {
        memo = { endpoint: req.endpoint, prep, accepted, resolved: resolveRequest(prep, req.params, this.limits, accepted) };
      } catch {
        return null; // run() answers the error
      }
      this.resolvedByParams.set(req.params, memo);
    }
    const prep = memo.prep;
    if (prep.def.cache_duration_seconds <= 0) return null;
    const resolved = memo.resolved;
    const redact = prep.def.redact_pii || req.redactHeader;
    const r = this.cache.lookup(prep, resolved, redact);
    return r ? described(r, prep, redact, resolved.format) : null;
  }

  subscribe(req: RunRequest): LiveFeed {
    const prep = this.resolve(req.endpoint);
    const resolved = resolveRequest(prep, req.params, this.limits, 'json');
    if (resolved.format) throw new RingqlError('invalid_parameter', 'Live subscriptions send JSON messages only: drop the format parameter', { param: 'format', allowed: ['json'] });
    const deps = { catalog: this.catalog, budget: this.budget, gate: this.gate, now: this.now, run: (r: RunRequest) => this.run(r) };
    return openLiveFeed(deps, prep, resolved, { endpoint: prep.def.id, params: req.params, redactHeader: req.redactHeader });
  }

  onIngest(listener: (source: string) => void): () => void {
    this.ingestListeners.add(listener);
    return () => void this.ingestListeners.delete(listener);
  }

  private ingested(source: string): void {
    this.cache.onIngest(source);
    for (const l of this.ingestListeners) l(source);
  }

  endpointRedacts(idOrName: string): boolean {
    const id = isUuid(idOrName) ? idOrName.toLowerCase() : this.byName.get(idOrName.toLowerCase());
    return id ? (this.byId.get(id)?.def.redact_pii ?? false) : false;
  }

  /** Stores a batch; with a write-ahead log attached it is logged first and acknowledged once durable. */
  ingest(source: string, events: unknown[]): IngestResponse | Promise<IngestResponse> {
    const wal = this.wal;
    if (!wal) return this.ingestVolatile(source, events);
    const s = this.checkBatch(source, events);
    const nowUs = this.now();
    // Logged once valid and before stored (no await in between, so batches reach log and store in one
    // order); acknowledged once durable as RINGQL_FSYNC asks.
    const stamped = stampBatch(events, nowUs);
    const r = s.ingest(stamped, nowUs, (maxTs) => wal.appendSync(RECORD_BATCH, encodeBatch(s.def.name, stamped), maxTs));
    this.ingested(s.def.name);
    const out = { stored: r.stored, dropped: r.dropped, source: s.def.name };
    return wal.durable().then(() => out);
  }

  ingestBody(source: string, body: Buffer, ndjson: boolean, parse: () => unknown[]): IngestResponse | Promise<IngestResponse> {
    const wal = this.wal;
    if (!wal) return this.ingestBodyVolatile(source, body, ndjson, parse);
    const s = this.opts.store.source(source);
    if (!s) return this.ingest(source, parse());
    const nowUs = this.now();
    const idSeed = randomBytes(16);
    // The log takes the body's own bytes (with the fill-in time and id seed), not a re-serialised batch.
    const raw = { source: s.def.name, ndjson, fillUs: nowUs, idSeed, body };
    const r = s.ingestBytes(body, ndjson, nowUs, {
      fillUs: nowUs, idSeed, checkCount: (n) => this.checkCount(n),
      beforeCommit: (maxTs) => wal.appendSync(RECORD_RAW_BATCH, rawBatchParts(raw), maxTs),
    });
    if (typeof r === 'string') return this.ingest(source, parse());
    this.ingested(s.def.name);
    const out = { stored: r.stored, dropped: r.dropped, source: s.def.name };
    return wal.durable().then(() => out);
  }

  /** ingestVolatile of a raw body: the addon's byte path, or `parse` and the reference path when it declines the body. */
  ingestBodyVolatile(source: string, body: Buffer, ndjson: boolean, parse: () => unknown[]): IngestResponse {
    const s = this.opts.store.source(source);
    const r = s ? s.ingestBytes(body, ndjson, this.now(), { checkCount: (n) => this.checkCount(n) }) : 'no such source';
    if (typeof r === 'string') return this.ingestVolatile(source, parse());
    this.ingested(s!.def.name);
    return { stored: r.stored, dropped: r.dropped, source: s!.def.name };
  }

  /** Stores a batch without logging it (demo data regenerated at every start, the CLI's files, replay). */
  ingestVolatile(source: string, events: unknown[]): IngestResponse {
    const s = this.checkBatch(source, events);
    const r = s.ingest(events, this.now());
    this.ingested(s.def.name);
    return { stored: r.stored, dropped: r.dropped, source: s.def.name };
  }

  private checkBatch(source: string, events: unknown[]): SourceStore {
    const s = this.opts.store.source(source);
    if (!s) throw new RingqlError('source_not_found', `No source named or with id "${source.slice(0, 200)}"; sources: ${this.opts.store.sources().map((x) => x.def.name).join(', ')}`);
    if (!Array.isArray(events) || events.length === 0) throw new RingqlError('invalid_events', 'The batch is empty: send at least one event', { errors: [] });
    this.checkCount(events.length);
    return s;
  }

  private checkCount(n: number): void {
    if (n > this.limits.maxEventsPerBatch) {
      throw new RingqlError('payload_too_large', `The batch holds ${n} events; the limit is ${this.limits.maxEventsPerBatch} per request (RINGQL_MAX_EVENTS_PER_BATCH): split it`, { limit: this.limits.maxEventsPerBatch });
    }
  }

  /** Makes ingest durable from here on (main.ts, after recovery): every batch is logged before it is stored. */
  attachWal(wal: Wal, recovery: RecoveryReport, checkpoint: (() => Record<string, unknown>) | null = null): void {
    this.wal = wal;
    this.recovery = recovery;
    this.checkpointStats = checkpoint;
  }

  private info(p: PreparedEndpoint): EndpointInfo {
    const d = p.def;
    return {
      id: d.id, token: d.id, name: d.name, description: d.description, query: d.query,
      max_limit: d.max_limit, cache_duration_seconds: d.cache_duration_seconds,
      proactive_requerying_seconds: d.proactive_requerying_seconds, sandboxable: d.sandboxable, redact_pii: d.redact_pii,
      params: p.params, builtin: d.builtin,
    };
  }

  listEndpoints(): EndpointInfo[] {
    return [...this.byId.values()].map((p) => this.info(p));
  }

  getEndpoint(idOrName: string): EndpointInfo {
    return this.info(this.resolve(idOrName));
  }

  async createEndpoint(input: EndpointInput): Promise<EndpointInfo> {
    const def = applyInput(null, input, () => randomUUID());
    if (this.byName.has(def.name.toLowerCase())) throw new RingqlError('name_taken', `An endpoint named ${def.name} exists already`, { name: def.name });
    const prep = prepareEndpoint(def, this.catalog, this.now());
    if (this.opts.stateDir) saveStored(this.opts.stateDir, def);
    this.byId.set(def.id, prep);
    this.byName.set(def.name.toLowerCase(), def.id);
    return this.info(prep);
  }

  async updateEndpoint(idOrName: string, input: EndpointInput): Promise<EndpointInfo> {
    const old = this.resolve(idOrName);
    if (old.def.builtin) throw new RingqlError('builtin_readonly', `${old.def.name} is built in and cannot be changed; create a new endpoint instead`);
    const def = applyInput(old.def, input, () => old.def.id);
    const other = this.byName.get(def.name.toLowerCase());
    if (other && other !== def.id) throw new RingqlError('name_taken', `An endpoint named ${def.name} exists already`, { name: def.name });
    const prep = prepareEndpoint(def, this.catalog, this.now());
    if (this.opts.stateDir) saveStored(this.opts.stateDir, def);
    this.byName.delete(old.def.name.toLowerCase());
    this.byId.set(def.id, prep);
    this.byName.set(def.name.toLowerCase(), def.id);
    this.cache.dropEndpoint(def.id);
    return this.info(prep);
  }

  async deleteEndpoint(idOrName: string): Promise<void> {
    const old = this.resolve(idOrName);
    if (old.def.builtin) throw new RingqlError('builtin_readonly', `${old.def.name} is built in and cannot be deleted`);
    if (this.opts.stateDir) deleteStored(this.opts.stateDir, old.def.id);
    this.byId.delete(old.def.id);
    this.byName.delete(old.def.name.toLowerCase());
    this.cache.dropEndpoint(old.def.id);
  }

  sources(): SourceInfo[] {
    return this.opts.store.sources().map((s) => ({
      id: s.def.id, name: s.def.name, rows: s.rowCount, min_timestamp: s.minTs, max_timestamp: s.maxTs, evicted: s.evicted,
    }));
  }

  schema(sourceNameOrId: string): SchemaField[] {
    const s = this.opts.store.source(sourceNameOrId);
    if (!s) throw new RingqlError('source_not_found', `No source named or with id "${sourceNameOrId.slice(0, 200)}"`);
    return s.schema();
  }

  health(): Record<string, unknown> {
    const mem = process.memoryUsage();
    return {
      uptime_seconds: Math.round((Date.now() - this.started) / 1000),
      rows: Object.fromEntries(this.opts.store.sources().map((s) => [s.def.name, s.rowCount])),
      memory: { rss: mem.rss, heap_used: mem.heapUsed, external: mem.external },
      // RINGQL_MAX_MEMORY and what counts against it (segments, open buffers, dictionaries, caches).
      memory_budget: this.opts.store.memoryStats(),
      // Field paths each source's schema holds and a rough estimate of their heap bytes (bounded by
      // RINGQL_MAX_FIELDS_PER_SOURCE, forgotten with the rows that used them).
      schema: Object.fromEntries(this.opts.store.sources().map((s) => {
        const st = s.stats();
        return [s.def.name, { fields: st.schemaFields, bytes: st.schemaBytes }];
      })),
      cache: this.cache.stats(),
      queries: this.gate.stats(),
      durability: this.wal ? {
        wal: this.wal.stats(),
        checkpoint: this.checkpointStats?.() ?? null,
        recovery: this.recovery && { ms: Math.round(this.recovery.ms), records: this.recovery.records, events: this.recovery.events, bytes: this.recovery.bytes, torn_tails: this.recovery.tornTails, set_aside: this.recovery.setAside },
      } : null,
    };
  }

  figures(): ServiceFigures {
    const sources = this.opts.store.sources().map((s) => {
      const st = s.stats();
      return { name: s.def.name, rows: st.rows, bytes: st.bytes, evicted: st.evicted, dropped: st.dropped };
    });
    const w = this.wal?.stats();
    return {
      sources, cache: this.cache.stats(), queries: this.gate.stats(),
      wal: w ? { files: w.files, bytes: w.bytes, fsyncs: w.fsyncs, write_errors: w.write_errors } : null,
    };
  }

  close(): void {
    this.cache.close();
  }
}

/** `file` or `file:line:column` when the error has a position. */
/**
 * The cache's answer with what the service adds: redaction, endpoint name, format. A new object of one
 * fixed shape: adding these fields to a hit's object (which the cache makes by spreading) took V8's
 * slow path, about 2 µs per hit, more than the whole cache lookup.
 */
function described(r: RunResponse, prep: PreparedEndpoint, redacted: boolean, format: OutputFormat | undefined): RunResponse {
  // Every field named (tsc fails here when RunResponse gains one), so nothing the cache set is lost.
  const out: { [K in keyof Required<RunResponse>]: RunResponse[K] } = {
    body: r.body, format: format ?? r.format, rowCount: r.rowCount, truncated: r.truncated, cache: r.cache, cacheKind: r.cacheKind,
    ageSeconds: r.ageSeconds, timings: r.timings, rowsScanned: r.rowsScanned, streamed: r.streamed, redacted, endpoint: prep.def.name,
  };
  return out;
}

function where(file: string, err: RingqlError): string {
  return err.details.line ? `${file}:${String(err.details.line)}:${String(err.details.column)}` : file;
}
