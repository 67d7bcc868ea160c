// The metrics of one server (SPEC §3 Metrics): its own prom-client registry (several servers can run
// in one process), counters the request paths bump on objects cached per source and endpoint, and
// store, cache and log figures read from the service when /metrics is scraped.

import { collectDefaultMetrics, Registry } from 'prom-client';
import type { QueryService, ServiceFigures } from '../../endpoints/service-types.ts';
import { ReadCounter, ReadGauge, ReadHistogram, type HistogramChild, type Sample } from './read-metrics.ts';

/** Query duration buckets, seconds: a cache hit is well under a millisecond, the time budget 10 s. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** How a query was answered: computed now, or from the result or the bucket cache (X-Cache, X-Cache-Kind). */
export type CacheOutcome = 'miss' | 'result' | 'bucket';

interface SourceCounters {
  events: Sample;
  bytes: Sample;
  batches: Sample;
}

interface EndpointCounters {
  ok: Sample;
  /** Made at the first answer of each outcome, so an endpoint never answered from a cache shows no such series. */
  durations: Partial<Record<CacheOutcome, HistogramChild>>;
}

/** Endpoint label for a failed request naming no endpoint there is (names never contain parentheses). */
export const UNKNOWN_ENDPOINT = '(unknown)';

export class ServerMetrics {
  readonly registry = new Registry();
  private readonly sources = new Map<string, SourceCounters>();
  private readonly endpoints = new Map<string, EndpointCounters>();
  private readonly ingestErrors = new Map<string, Sample>();
  /** Keyed by endpoint name, then outcome (an error code). */
  private readonly queryErrors = new Map<string, Map<string, Sample>>();
  private readonly samples = { events: [] as Sample[], bytes: [] as Sample[], batches: [] as Sample[], queries: [] as Sample[], ingestErrors: [] as Sample[] };
  private readonly durations: ReadHistogram;
  private figures: ServiceFigures | null = null;
  private defaultsOn = false;

  constructor() {
    const r = this.registry, s = this.samples;
    new ReadCounter(r, { name: 'ringql_ingest_events_total', help: 'Events stored by acknowledged ingest requests', labelNames: ['source'] }, () => s.events);
    new ReadCounter(r, { name: 'ringql_ingest_bytes_total', help: 'Request body bytes (after gzip decoding) of acknowledged ingest requests', labelNames: ['source'] }, () => s.bytes);
    new ReadCounter(r, { name: 'ringql_ingest_batches_total', help: 'Acknowledged ingest requests', labelNames: ['source'] }, () => s.batches);
    new ReadCounter(r, { name: 'ringql_ingest_errors_total', help: 'Ingest requests answered with an error, by error code', labelNames: ['code'] }, () => s.ingestErrors);
    new ReadCounter(r, { name: 'ringql_queries_total', help: 'Saved-query requests by endpoint and outcome (ok or the error code)', labelNames: ['endpoint', 'outcome'] }, () => s.queries);
    this.durations = new ReadHistogram(r, {
      name: 'ringql_query_duration_seconds', help: 'Time to answer a successful saved-query request, by endpoint and cache outcome (miss, result, bucket)',
      labelNames: ['endpoint', 'cache'],
    }, DURATION_BUCKETS);
    this.addFigureMetrics();
  }

  /** An acknowledged ingest request: `events` stored into `source` (its name) from `bytes` of body. */
  ingested(source: string, events: number, bytes: number): void {
    let c = this.sources.get(source);
    if (!c) this.sources.set(source, (c = this.newSource(source)));
    c.events.value += events;
    c.bytes.value += bytes;
    c.batches.value++;
  }

  /** A successful saved-query request of `endpoint` (its name). */
  answered(endpoint: string, cache: CacheOutcome, seconds: number): void {
    let c = this.endpoints.get(endpoint);
    if (!c) this.endpoints.set(endpoint, (c = this.newEndpoint(endpoint)));
    c.ok.value++;
    (c.durations[cache] ??= this.durations.child({ endpoint, cache })).observe(seconds);
  }

  ingestFailed(code: string): void {
    let c = this.ingestErrors.get(code);
    if (!c) {
      this.ingestErrors.set(code, (c = { labels: { code }, value: 0 }));
      this.samples.ingestErrors.push(c);
    }
    c.value++;
  }

  queryFailed(endpoint: string, code: string): void {
    let byCode = this.queryErrors.get(endpoint);
    if (!byCode) this.queryErrors.set(endpoint, (byCode = new Map()));
    let c = byCode.get(code);
    if (!c) {
      byCode.set(code, (c = { labels: { endpoint, outcome: code }, value: 0 }));
      this.samples.queries.push(c);
    }
    c.value++;
  }

  /** The Prometheus text format; the process metrics start with the first scrape. */
  async render(service: QueryService): Promise<string> {
    if (!this.defaultsOn) {
      collectDefaultMetrics({ register: this.registry });
      this.defaultsOn = true;
    }
    this.figures = service.figures?.() ?? null;
    return this.registry.metrics();
  }

  readonly contentType = Registry.PROMETHEUS_CONTENT_TYPE;

  private newSource(source: string): SourceCounters {
    const labels = { source };
    const c = { events: { labels, value: 0 }, bytes: { labels, value: 0 }, batches: { labels, value: 0 } };
    this.samples.events.push(c.events);
    this.samples.bytes.push(c.bytes);
    this.samples.batches.push(c.batches);
    return c;
  }

  private newEndpoint(endpoint: string): EndpointCounters {
    const ok = { labels: { endpoint, outcome: 'ok' }, value: 0 };
    this.samples.queries.push(ok);
    return { ok, durations: {} };
  }

  /** Gauges and counters read from the service's figures of this scrape. */
  private addFigureMetrics(): void {
    const r = this.registry;
    const f = (): ServiceFigures | null => this.figures;
    const perSource = (pick: (s: ServiceFigures['sources'][number]) => number) => (): Sample[] =>
      (f()?.sources ?? []).map((s) => ({ labels: { source: s.name }, value: pick(s) }));
    const one = (pick: (x: ServiceFigures) => number | undefined) => (): Sample[] => {
      const x = f();
      const v = x ? pick(x) : undefined;
      return v === undefined ? [] : [{ labels: {}, value: v }];
    };
    new ReadGauge(r, { name: 'ringql_source_events', help: 'Events held per source (visible to queries)', labelNames: ['source'] }, perSource((s) => s.rows));
    new ReadGauge(r, { name: 'ringql_source_bytes', help: 'Estimated bytes of events held per source', labelNames: ['source'] }, perSource((s) => s.bytes));
    new ReadCounter(r, { name: 'ringql_source_evicted_events_total', help: 'Events evicted per source (retention or capacity)', labelNames: ['source'] }, perSource((s) => s.evicted));
    new ReadCounter(r, { name: 'ringql_source_dropped_events_total', help: 'Events not stored because they were older than the retention window', labelNames: ['source'] }, perSource((s) => s.dropped));
    new ReadCounter(r, { name: 'ringql_cache_hits_total', help: 'Saved-query answers from a cache, by kind (result, bucket)', labelNames: ['kind'] }, () => {
      const c = f()?.cache;
      return c ? [{ labels: { kind: 'result' }, value: c.hits }, { labels: { kind: 'bucket' }, value: c.bucket_hits }] : [];
    });
    new ReadCounter(r, { name: 'ringql_cache_misses_total', help: 'Saved-query results computed (cache misses and background warm runs)' }, one((x) => x.cache.computations));
    new ReadCounter(r, { name: 'ringql_cache_warm_runs_total', help: 'Background recomputations of used results (proactive_requerying_seconds)' }, one((x) => x.cache.warm_runs));
    new ReadCounter(r, { name: 'ringql_cache_warm_skipped_total', help: 'Background recomputations a bound put off' }, one((x) => x.cache.warm_skipped));
    new ReadGauge(r, { name: 'ringql_cache_entries', help: 'Results held in the result cache' }, one((x) => x.cache.entries));
    new ReadGauge(r, { name: 'ringql_cache_bytes', help: 'Estimated bytes of the result cache' }, one((x) => x.cache.bytes));
    new ReadGauge(r, { name: 'ringql_bucket_cache_states', help: 'Time-bucket aggregate states held by the bucket cache' }, one((x) => x.cache.bucket_states));
    new ReadGauge(r, { name: 'ringql_bucket_cache_bytes', help: 'Estimated bytes of the bucket cache' }, one((x) => x.cache.bucket_bytes));
    new ReadGauge(r, { name: 'ringql_queries_running', help: 'Uncached queries running now' }, one((x) => x.queries.running));
    new ReadGauge(r, { name: 'ringql_queries_max_concurrent', help: 'Uncached queries allowed at once (RINGQL_MAX_CONCURRENT_QUERIES)' }, one((x) => x.queries.max));
    new ReadCounter(r, { name: 'ringql_queries_refused_total', help: 'Queries refused with 503 overloaded' }, one((x) => x.queries.refused));
    new ReadGauge(r, { name: 'ringql_wal_files', help: 'Write-ahead log files on disk' }, one((x) => x.wal?.files));
    new ReadGauge(r, { name: 'ringql_wal_bytes', help: 'Bytes of the write-ahead log on disk' }, one((x) => x.wal?.bytes));
    new ReadCounter(r, { name: 'ringql_wal_fsyncs_total', help: 'fsync calls on the write-ahead log' }, one((x) => x.wal?.fsyncs));
    new ReadCounter(r, { name: 'ringql_wal_write_errors_total', help: 'Failed writes to the write-ahead log (ingest answered 503 storage_unavailable)' }, one((x) => x.wal?.write_errors));
  }
}
