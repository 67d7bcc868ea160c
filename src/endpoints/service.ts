// The QueryService the HTTP layer and the CLI use: endpoints prepared once (built-ins from data/,
// created ones from the state directory), requests run through the result cache, ingest into
// the store, management with validation and atomic persistence.

import { randomUUID } from 'node:crypto';
import { RingqlError } from '../core/errors.ts';
import { nowMicros } from '../core/time.ts';
import { tickNowMicros } from '../core/tick-clock.ts';
import type { Store } from '../store/store.ts';
import type { Catalog } from '../plan/catalog.ts';
import type { Budget } from '../exec/context.ts';
import { applyInput } from './definition.ts';
import { prepareEndpoint, type PreparedEndpoint } from './prepare.ts';
import { resolveRequest, type ResolvedRequest } from './execute.ts';
import { openLiveFeed } from './live-feed.ts';
import { catalogFromStore } from './store-catalog.ts';
import { deleteStored, saveStored } from './endpoint-files.ts';
import { EndpointRegistry } from './endpoint-registry.ts';
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
}

export async function createQueryService(opts: ServiceOptions): Promise<QueryService & EngineService> {
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
  private readonly resolvedByParams = new WeakMap<ReadonlyMap<string, string>, { prep: PreparedEndpoint; accepted: OutputFormat | null; resolved: ResolvedRequest }>();

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

  /** Prepares the built-ins and the stored endpoints (EndpointRegistry.load). */
  load(): void {
    this.endpoints.load(this.opts.stateDir, this.opts.log ?? ((line: string) => void process.stderr.write(`${line}\n`)));
  }

  resolve(idOrName: string): PreparedEndpoint {
    return this.endpoints.resolve(idOrName);
  }

  async run(req: RunRequest): Promise<RunResponse> {
    const prep = this.resolve(req.endpoint);
    const resolved = resolveRequest(prep, req.params, this.limits, req.accepted === undefined ? 'json' : req.accepted);
    const redact = prep.def.redact_pii || req.redactHeader;
    const r = await this.cache.run(prep, resolved, redact, { catalog: this.catalog, budget: this.budget, gate: this.gate }, req.stream);
    r.redacted = redact;
    r.endpoint = prep.def.name;
    if (resolved.format) r.format = resolved.format;
    return r;
  }

  runCached(req: RunRequest): RunResponse | null {
    const prep = this.endpoints.find(req.endpoint);
    if (!prep || prep.def.cache_duration_seconds <= 0) return null;
    const accepted = req.accepted === undefined ? 'json' : req.accepted;
    // The hit path passes one parameter map per URL: what it resolved to is reused while the endpoint is the same object.
    let memo = this.resolvedByParams.get(req.params);
    if (!memo || memo.prep !== prep || memo.accepted !== accepted) {
      try {
        memo = { prep, accepted, resolved: resolveRequest(prep, req.params, this.limits, accepted) };
      } catch {
        return null; // run() answers the error
      }
      this.resolvedByParams.set(req.params, memo);
    }
    const resolved = memo.resolved;
    const redact = prep.def.redact_pii || req.redactHeader;
    const r = this.cache.lookup(prep, resolved, redact);
    if (!r) return null;
    r.redacted = redact;
    r.endpoint = prep.def.name;
    if (resolved.format) r.format = resolved.format;
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

  ingestBody(source: string, body: Buffer, ndjson: boolean, parse: () => unknown[]): IngestResponse | Promise<IngestResponse> {
    return this.ingestPath.ingestBody(source, body, ndjson, parse);
  }

  /** ingestVolatile of a raw body: the addon's byte path, or `parse` and the reference path when it declines the body. */
  ingestBodyVolatile(source: string, body: Buffer, ndjson: boolean, parse: () => unknown[]): IngestResponse {
    return this.ingestPath.ingestBodyVolatile(source, body, ndjson, parse);
  }

  /** Stores a batch without logging it (demo data regenerated at every start, the CLI's files, replay). */
  ingestVolatile(source: string, events: unknown[]): IngestResponse {
    return this.ingestPath.ingestVolatile(source, events);
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
    const def = applyInput(null, input, () => randomUUID());
    if (this.endpoints.idOfName(def.name) !== undefined) throw new RingqlError('name_taken', `An endpoint named ${def.name} exists already`, { name: def.name });
    const prep = prepareEndpoint(def, this.catalog, this.now());
    if (this.opts.stateDir) saveStored(this.opts.stateDir, def);
    this.endpoints.put(prep);
    return this.info(prep);
  }

  async updateEndpoint(idOrName: string, input: EndpointInput): Promise<EndpointInfo> {
    const old = this.resolve(idOrName);
    if (old.def.builtin) throw new RingqlError('builtin_readonly', `${old.def.name} is built in and cannot be changed; create a new endpoint instead`);
    const def = applyInput(old.def, input, () => old.def.id);
    const other = this.endpoints.idOfName(def.name);
    if (other && other !== def.id) throw new RingqlError('name_taken', `An endpoint named ${def.name} exists already`, { name: def.name });
    const prep = prepareEndpoint(def, this.catalog, this.now());
    if (this.opts.stateDir) saveStored(this.opts.stateDir, def);
    this.endpoints.forgetName(old.def.name);
    this.endpoints.put(prep);
    this.cache.dropEndpoint(def.id);
    return this.info(prep);
  }

  async deleteEndpoint(idOrName: string): Promise<void> {
    const old = this.resolve(idOrName);
    if (old.def.builtin) throw new RingqlError('builtin_readonly', `${old.def.name} is built in and cannot be deleted`);
    if (this.opts.stateDir) deleteStored(this.opts.stateDir, old.def.id);
    this.endpoints.remove(old.def);
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
