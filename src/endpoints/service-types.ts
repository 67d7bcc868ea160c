// What the HTTP layer (and the CLI) may ask of the engine: run endpoints, ingest events, manage
// endpoints, describe sources. Implemented by src/endpoints/service.ts; http/ depends only on this.

import type { SchemaField } from '../store/types.ts';
import type { OutputFormat } from '../exec/sinks/row-sink.ts';
import type { BodyStream } from '../exec/body-stream.ts';

export type { BodyStream, OutputFormat };

/** Settings of a saved endpoint, with the reference's field names (SPEC §3). */
export interface EndpointSettings {
  max_limit: number;
  cache_duration_seconds: number;
  proactive_requerying_seconds: number;
  sandboxable: boolean;
  redact_pii: boolean;
}

export interface ParamRule {
  name: string;
  required?: boolean;
  allowed?: string[];
  /** Checked before the query runs: `timestamp` must parse as one, `regex` must compile (RE2). */
  type?: 'string' | 'timestamp' | 'regex';
}

/** An endpoint as listed and returned by the management API. */
export interface EndpointInfo extends EndpointSettings {
  id: string;
  /** Same as id: the reference's name for it. */
  token: string;
  name: string;
  description: string;
  query: string;
  /** Every @param the query uses, with its rules. */
  params: ParamRule[];
  builtin: boolean;
}

/** Fields accepted by POST /api/endpoints (all but name and query optional) and PUT (all optional). */
export interface EndpointInput {
  name?: unknown;
  query?: unknown;
  description?: unknown;
  max_limit?: unknown;
  cache_duration_seconds?: unknown;
  proactive_requerying_seconds?: unknown;
  sandboxable?: unknown;
  redact_pii?: unknown;
  params?: unknown;
}

export interface RunRequest {
  /** Endpoint UUID or name. */
  endpoint: string;
  /** Decoded query-string / body values; the service picks the declared params, `sql`, `lql`. */
  params: Map<string, string>;
  /** Header LF-ENDPOINT-REDACT-PII was `true`. */
  redactHeader: boolean;
  /**
   * The format the Accept header picks; null when it allows none of them (406 unless a `format`
   * parameter decides); absent = json.
   */
  accepted?: OutputFormat | null;
  /** Where a large uncached body may go in chunks as it is made (the HTTP response); absent = whole. */
  stream?: BodyStream;
  /** Cluster mode: the node that forwarded this query (it is answered here, never forwarded again). */
  forwardedBy?: string;
}

import type { RunResponse } from '../cache/run-response.ts';
export type { RunResponse };

/** How a live subscription follows its query (SPEC §3 Live subscriptions). */
export type LiveMode = 'rows' | 'buckets' | 'result';

/** A live subscription's answers, as JSON message bodies ready to send. */
export interface LiveFeed {
  /** `rows`: appends of new rows; `buckets`: the bucket-cache result when it changed; `result`: re-run on new events. */
  readonly mode: LiveMode;
  /** Redaction is on (the endpoint's `redact_pii` or the request asked for it). */
  readonly redacted: boolean;
  /** The first message, `{"result":[...]}`. */
  first(): Promise<Buffer>;
  /** The next message (`{"result":[...]}` or `{"append":[...]}`), or null when nothing changed or every query slot is busy. */
  next(): Promise<Buffer | null>;
}

export interface SourceInfo {
  id: string;
  name: string;
  rows: number;
  min_timestamp: number | null;
  max_timestamp: number | null;
  evicted: number;
}

export interface IngestResponse {
  stored: number;
  dropped: number;
  /** The source's name (however the request named it), for per-source metrics. */
  source?: string;
}

/** Figures read when /metrics is scraped (never on a request's path). */
export interface ServiceFigures {
  sources: { name: string; rows: number; bytes: number; evicted: number; dropped: number }[];
  cache: {
    entries: number; bytes: number; computations: number; hits: number; bucket_hits: number;
    bucket_states: number; bucket_bytes: number; warm_runs: number; warm_skipped: number;
  };
  queries: { running: number; max: number; refused: number };
  /** Null without a write-ahead log (CLI, tests). */
  wal: { files: number; bytes: number; fsyncs: number; write_errors: number } | null;
}

/** Errors are thrown as RingqlError (src/core/errors.ts); anything else is a bug (500). */
export interface QueryService {
  run(req: RunRequest): Promise<RunResponse>;
  /**
   * The cached answer for `req`, or null when no cache holds it now or the request is not a plain valid
   * one (its error, like a miss, comes from run()). Never runs a query, never waits: the HTTP hit path.
   */
  runCached?(req: RunRequest): RunResponse | null;
  /** Whether the endpoint has `redact_pii` set; false when no endpoint has that id or name. Cheap, no query runs. */
  endpointRedacts(idOrName: string): boolean;
  /** Opens a live feed: the endpoint and parameters are checked and the query planned now (errors are thrown). */
  subscribe(req: RunRequest): LiveFeed;
  /** Calls `listener` after each stored batch (source name), so live feeds can answer at once; returns the unsubscribe. */
  onIngest(listener: (source: string) => void): () => void;
  /** Source by name or UUID; all-or-nothing; resolves once the events are visible to queries. */
  /** Resolves (or returns) once the events are stored, visible and, with a write-ahead log, durable. */
  ingest(source: string, events: unknown[]): IngestResponse | Promise<IngestResponse>;
  /**
   * ingest() of a raw request body (after gzip; `ndjson`: one event per line) through the byte-level
   * path; when the addon declines the body, ingest(source, parse()): the same answers and errors as
   * the reference path. Optional for test doubles. `lend`: the body's memory is given over (transferred to
   * the transform thread and back, not copied): the caller must not read `body` after the call, and
   * `parse` is handed the body that came back.
   */
  ingestBody?(source: string, body: Buffer, ndjson: boolean, parse: (body: Buffer) => unknown[], lend?: boolean): IngestResponse | Promise<IngestResponse>;
  listEndpoints(): EndpointInfo[];
  getEndpoint(idOrName: string): EndpointInfo;
  createEndpoint(input: EndpointInput): Promise<EndpointInfo>;
  updateEndpoint(idOrName: string, input: EndpointInput): Promise<EndpointInfo>;
  deleteEndpoint(idOrName: string): Promise<void>;
  /** The sources' figures (cluster mode: added up across the nodes, hence possibly a promise). */
  sources(): SourceInfo[] | Promise<SourceInfo[]>;
  schema(sourceNameOrId: string): SchemaField[];
  /** Rows held per source and memory, for /health (cluster mode: added up across the nodes). */
  health(): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Store, cache and log figures for /metrics; absent in fakes that have none. */
  figures?(): ServiceFigures;
}
