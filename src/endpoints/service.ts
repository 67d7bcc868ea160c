// The QueryService both front ends use: endpoints prepared once, requests through the result cache,
// ingest into the store, management with validation and atomic persistence. Over 300 lines as the one
// facade; the work lives in ingest-path.ts, the endpoint registry and the result cache.

import { randomUUID } from 'node:crypto';
import { RingqlError } from '../core/errors.ts';
import { nowMicros } from '../core/time.ts';
import { tickNowMicros } from '../core/tick-clock.ts';
import type { Store } from '../store/store.ts';
import type { Catalog } from '../plan/catalog.ts';
import type { Budget } from '../exec/context.ts';
import { applyInput, type EndpointDef } from './definition.ts';
import { loadEndpoint, prepareEndpoint, type PreparedEndpoint } from './prepare.ts';
import type { SourceStore } from '../store/source-store.ts';
import { resolveRequest, type ResolvedRequest } from './execute.ts';
import { explainRequest } from './explain-request.ts';
import { openLiveFeed } from './live-feed.ts';
import { catalogFromStore } from './store-catalog.ts';
import { deleteStored, saveStored } from './endpoint-files.ts';
import { EndpointRegistry } from './endpoint-registry.ts';
import type { TransformThread } from '../store/transform-thread.ts';
import { IngestPath } from './ingest-path.ts';
import { healthReport, serviceFigures, type ServiceParts } from './service-health.ts';
import { ResultCache, type CacheConfig } from '../cache/result-cache.ts';
import { QueryGate } from '../cache/query-gate.ts';
import type { Wal } from '../durable/wal.ts';
import type { RecoveryReport } from '../durable/wal-recovery.ts';
import { limitsFromEnv, type Limits } from '../core/limits.ts';
import { budgetSettings } from '../core/config.ts';
import type {
  EndpointInfo, EndpointInput, IngestResponse, LiveFeed, OutputFormat, QueryService, RunRequest, RunResponse, ServiceFigures, SourceInfo,
} from './service-types.ts';
import type { SchemaField } from '../store/types.ts';

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
  /** With no stateDir (the CLI): prepare the built-in endpoints at their first lookup, not at creation. */
  lazyBuiltins?: boolean;
}

export async function createQueryService(opts: ServiceOptions): Promise<EngineService> {
  const svc = new EngineService(opts);
  svc.load();
  return svc;
}

export class EngineService implements QueryService {
  readonly catalog: Catalog;
  readonly now: () => number;
  private readonly endpoints: EndpointRegistry;
  private readonly ingestPath: IngestPath;
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
    this.endpoints = new EndpointRegistry(this.catalog, this.now);
    this.ingestPath = new IngestPath(opts.store, this.now, this.limits, (source) => this.ingested(source));
    // Hits read the timer-ticked clock unless a test gave its own.
    this.cache = new ResultCache(opts.cache ?? {}, () => this.now(), this.gate, opts.nowMicros ?? tickNowMicros);
    // The result cache counts against the process memory budget (RINGQL_MAX_MEMORY).
    opts.store.countExternal(() => this.cache.stats().bytes);
  }

  /** Prepares the built-ins (now, or at first lookup with lazyBuiltins) and the stored endpoints (EndpointRegistry.load). */
  load(): void {
    this.endpoints.load(this.opts.stateDir, this.opts.log ?? ((line: string) => void process.stderr.write(`${line}\n`)), this.opts.lazyBuiltins);
  }

  /** Whether the built-in endpoints are prepared (false only with lazyBuiltins, before any endpoint was looked up). */
  get builtinsPrepared(): boolean {
    return this.endpoints.builtinsPrepared;
  }

  resolve(idOrName: string): PreparedEndpoint {
    return this.endpoints.resolve(idOrName);
  }

  async run(req: RunRequest): Promise<RunResponse> {
    const prep = this.resolve(req.endpoint);
    const resolved = resolveRequest(prep, req.params, this.limits, req.accepted === undefined ? 'json' : req.accepted);
    const redact = prep.def.redact_pii || req.redactHeader;
    const explained = explainRequest(prep, resolved, this.catalog, this.now(), this.budget, redact);
    if (explained) return { ...explained, endpoint: prep.def.name };
    const r = await this.cache.run(prep, resolved, redact, { catalog: this.catalog, budget: this.budget, gate: this.gate }, req.stream);
    return described(r, prep, redact, resolved.format);
  }

  runCached(req: RunRequest): RunResponse | null {
    const accepted = req.accepted === undefined ? 'json' : req.accepted;
    // The hit path passes one parameter map per URL: what it resolved to is reused while the name still
    // leads to the same endpoint object (an update or delete replaces or removes it in the registry).
    let memo = this.resolvedByParams.get(req.params);
    if (!memo || memo.endpoint !== req.endpoint || memo.accepted !== accepted || this.endpoints.find(memo.prep.def.id) !== memo.prep) {
      const prep = this.endpoints.find(req.endpoint);
      // An endpoint that caches nothing is computed by run(), which resolves the parameters itself: a
      // computed request (a new URL each time, as a rotated parameter is) need not resolve them twice.
      if (!prep || prep.def.cache_duration_seconds <= 0) return null;
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
    if (!r) return null;
    // lookup's answer is a fresh object with every field present: filled in place, not copied (a hit's garbage).
    r.format = resolved.format ?? r.format;
    r.redacted = redact;
    r.endpoint = prep.def.name;
    return r;
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
    return this.endpoints.find(idOrName)?.def.redact_pii ?? false;
  }

  /** Stores a batch; with a write-ahead log attached it is logged first and acknowledged once durable. */
  ingest(source: string, events: unknown[]): IngestResponse | Promise<IngestResponse> {
    return this.ingestPath.ingest(source, events);
  }

  ingestBody(source: string, body: Buffer, ndjson: boolean, parse: (body: Buffer) => unknown[], lend = false): IngestResponse | Promise<IngestResponse> {
    return this.ingestPath.ingestBody(source, body, ndjson, parse, lend);
  }

  /** ingestVolatile of a raw body: the addon's byte path, or `parse` and the reference path when it declines the body. */
  ingestBodyVolatile(source: string, body: Buffer, ndjson: boolean, parse: () => unknown[]): IngestResponse {
    return this.ingestPath.ingestBodyVolatile(source, body, ndjson, parse);
  }

  /** ingestBodyVolatile through the transform thread when one is attached; stored in the order asked. */
  ingestBodyVolatileAsync(source: string, body: Buffer, ndjson: boolean, parse: () => unknown[]): Promise<IngestResponse> {
    return this.ingestPath.ingestBodyVolatileAsync(source, body, ndjson, parse);
  }

  /** Stores a batch without logging it (demo data regenerated at every start, the CLI's files, replay). */
  ingestVolatile(source: string, events: unknown[]): IngestResponse {
    return this.ingestPath.ingestVolatile(source, events);
  }

  /** The checks every ingest path makes before it reads an event: source known, batch non-empty, within the events-per-batch limit. */
  checkBatch(source: string, events: unknown[]): SourceStore {
    return this.ingestPath.checkBatch(source, events);
  }

  /** Transforms logged ingest bodies on `t` (main.ts, at start) instead of the main thread. */
  attachTransformer(t: TransformThread): void {
    this.ingestPath.transformer = t;
  }

  /** Makes ingest durable from here on (main.ts, after recovery): every batch is logged before it is stored. */
  attachWal(wal: Wal, recovery: RecoveryReport, checkpoint: (() => Record<string, unknown>) | null = null): void {
    this.wal = wal;
    this.ingestPath.wal = wal;
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
    return [...this.endpoints.all()].map((p) => this.info(p));
  }

  getEndpoint(idOrName: string): EndpointInfo {
    return this.info(this.resolve(idOrName));
  }

  async createEndpoint(input: EndpointInput): Promise<EndpointInfo> {
    const { def, prep } = this.draftEndpoint(null, input);
    if (this.opts.stateDir) saveStored(this.opts.stateDir, def);
    this.install(prep, null);
    return this.info(prep);
  }

  async updateEndpoint(idOrName: string, input: EndpointInput): Promise<EndpointInfo> {
    const { def, prep, old } = this.draftEndpoint(idOrName, input);
    if (this.opts.stateDir) saveStored(this.opts.stateDir, def);
    this.install(prep, old);
    return this.info(prep);
  }

  /**
   * A new (idOrName null) or changed endpoint, checked as create and update check it (built-ins fixed,
   * name free here, SQL prepares) but not installed: the caller stores it, then installs it.
   */
  draftEndpoint(idOrName: string | null, input: EndpointInput): { def: EndpointDef; prep: PreparedEndpoint; old: EndpointDef | null } {
    const old = idOrName === null ? null : this.resolve(idOrName).def;
    if (old?.builtin) throw new RingqlError('builtin_readonly', `${old.name} is built in and cannot be changed; create a new endpoint instead`);
    const def = applyInput(old, input, old ? () => old.id : () => randomUUID());
    const other = this.endpoints.idOfName(def.name);
    if (other !== undefined && other !== def.id) throw new RingqlError('name_taken', `An endpoint named ${def.name} exists already`, { name: def.name });
    return { def, prep: prepareEndpoint(def, this.catalog, this.now()), old };
  }

  /** Serves `prep` from now on (in place of `old`, whose name is released) and drops its cached results. */
  private install(prep: PreparedEndpoint, old: EndpointDef | null): void {
    if (old) this.endpoints.forgetName(old.name);
    this.endpoints.put(prep);
    if (old) this.cache.dropEndpoint(prep.def.id);
  }

  /**
   * Installs or replaces an endpoint defined elsewhere (cluster mode's endpoint bucket, which keeps names
   * unique): nothing is written to the state directory, its cached results are dropped, and a local
   * endpoint still holding its name under another id (renamed or deleted elsewhere) gives way. Built-ins
   * never change. Returns a line to log when it is refused or does not bind yet, else null.
   */
  applyEndpoint(def: EndpointDef): string | null {
    const cur = this.endpoints.find(def.id);
    const otherId = this.endpoints.idOfName(def.name);
    const other = otherId !== undefined && otherId !== def.id ? this.endpoints.find(otherId) : undefined;
    if (cur?.def.builtin || other?.def.builtin) return `ringql: cluster: endpoint ${def.name} (${def.id}) would change a built-in; ignored`;
    let loaded: ReturnType<typeof loadEndpoint>;
    try {
      loaded = loadEndpoint({ ...def, builtin: false }, this.catalog, this.now);
    } catch (err) {
      if (err instanceof RingqlError) return `ringql: cluster: endpoint ${def.name} (${def.id}) does not parse here (${err.message}); not served on this node`;
      throw err;
    }
    if (other) this.removeEndpoint(other.def.id);
    this.install(loaded.prep, cur?.def ?? null);
    const e = loaded.bindError;
    return e ? `ringql: cluster: endpoint ${def.name} does not bind yet (${e.code}: ${e.message}); it is served, and its requests answer that error until the data holds what it reads` : null;
  }

  /** Stops serving a created endpoint (deleted elsewhere: nothing on disk changes) and drops its cached results. */
  removeEndpoint(id: string): void {
    const cur = this.endpoints.find(id);
    if (!cur || cur.def.builtin) return;
    this.endpoints.remove(cur.def);
    this.cache.dropEndpoint(id);
  }

  async deleteEndpoint(idOrName: string): Promise<void> {
    const old = this.resolve(idOrName);
    if (old.def.builtin) throw new RingqlError('builtin_readonly', `${old.def.name} is built in and cannot be deleted`);
    if (this.opts.stateDir) deleteStored(this.opts.stateDir, old.def.id);
    this.removeEndpoint(old.def.id);
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

  private parts(): ServiceParts {
    return {
      store: this.opts.store, cache: this.cache, gate: this.gate, wal: this.wal,
      checkpointStats: this.checkpointStats, recovery: this.recovery, started: this.started,
    };
  }

  health(): Record<string, unknown> {
    return healthReport(this.parts());
  }

  figures(): ServiceFigures {
    return serviceFigures(this.parts());
  }

  close(): void {
    this.cache.close();
  }
}

/**
 * The cache's answer with what the service adds: redaction, endpoint name, format. A new object of one
 * fixed shape: adding these fields to a hit's object (which the cache makes by spreading) took V8's
 * slow path, about 2 µs per hit, more than the whole cache lookup.
 */
function described(r: RunResponse, prep: PreparedEndpoint, redacted: boolean, format: OutputFormat | undefined): RunResponse {
  // Every field named (tsc fails here when RunResponse gains one), so nothing the cache set is lost.
  const out: { [K in keyof Required<RunResponse>]: RunResponse[K] } = {
    body: r.body, format: format ?? r.format, rowCount: r.rowCount, truncated: r.truncated, cache: r.cache, cacheKind: r.cacheKind,
    ageSeconds: r.ageSeconds, timings: r.timings, rowsScanned: r.rowsScanned, streamed: r.streamed, redacted, endpoint: prep.def.name, recyclable: r.recyclable,
  };
  return out;
}
