// The narrow interface the store offers the executor: which sources exist, how events go in and
// how a scan reads one project's rows in a time range, newest first, in batches.

/** One of the nine log sources of SPEC §1. */
export interface SourceDef {
  /** Exact source name as written in SQL, e.g. `edge.logs.prod`. */
  name: string;
  /** Stable UUID (v5 of the name in RINGQL_SOURCE_NAMESPACE); never changes between runs. */
  id: string;
  /** Where the project ref lives in an event: ['project'] or ['metadata','project_ref'], .. */
  projectPath: string[];
}

export interface StoreConfig {
  /** Events older than now - retention are evicted / dropped at ingest. Microseconds. */
  retentionUs: number;
  /** Row capacity per source; over it the oldest events (by timestamp) are evicted. */
  maxRows: number;
  /** Stored-bytes capacity per source (sum of stored row text lengths); same eviction rule. */
  maxBytes: number;
  /** Sealed rows in zstd blocks (v2, default) or, when false, one uncompressed slab per segment (v1). */
  compress?: boolean;
  /** Raw bytes per compressed block (default 64 KiB; tests use tiny blocks to cross many). */
  blockBytes?: number;
  /** Rows in the open (unsorted) segment before it is sorted and sealed. */
  segmentRows: number;
  /** Validation limits per event. */
  maxEventDepth: number;
  maxStringBytes: number;
  /** Process memory budget in bytes (RINGQL_MAX_MEMORY); undefined: none (tests). */
  maxMemory?: number;
  /** Per-source retention and byte overrides (RINGQL_SOURCE_LIMITS), by source name. */
  sourceLimits?: ReadonlyMap<string, { retentionUs?: number; maxBytes?: number }>;
  /** Distinct field paths a source's schema may hold beyond the seeded ones (default: DEFAULT_LIMITS). */
  maxFieldsPerSource?: number;
  /** Bound of the decoded-block cache in bytes (a one-shot CLI query keeps it small); undefined: from maxMemory. */
  blockCacheBytes?: number;
}

export interface IngestResult {
  /** Events stored and visible to scans. */
  stored: number;
  /** Events older than the retention window (or the eviction watermark): not stored. */
  dropped: number;
}

export interface ScanSpec {
  /** Only rows whose project equals this; `undefined` = every row, `null` = rows without project. */
  project?: string | null;
  /** Lower time bound in µs; `minInclusive` says whether rows at exactly minTs count. */
  minTs?: number;
  minInclusive?: boolean;
  /** Upper time bound in µs. */
  maxTs?: number;
  maxInclusive?: boolean;
  /** Order of rows across all batches (ties: any stable order). 'any' lets the store go fastest. */
  order: 'desc' | 'asc' | 'any';
  /** Only rows whose ingest sequence number is greater than this (for incremental aggregates). */
  afterSeq?: number;
  /** Hot column keys (see SourceStore.hotKeys) whose dictionary ids the batches must carry. */
  hot?: string[];
  /** Rows per batch (default 1024). */
  batchSize?: number;
  /** Size of the first batch; later ones double up to batchSize (a consumer that may stop early reads less). */
  firstBatchSize?: number;
}

/**
 * The stored text of rows, read by a row's index. Each row's output JSON is serialised once at ingest,
 * keys in this order and shape (SPEC §2):
 * {"id":"..","timestamp":<µs>,"event_message":"..."|null,"metadata":[{...}]|[]}
 * Nested objects are arrays of one record, recursively.
 */
export interface RowText {
  json(r: number): string;
  /** JSON object text of the other top-level keys of the event (record-shaped too), or null when none. */
  extra(r: number): string | null;
  /** The row's JSON as stored: UTF-8 bytes (a view, not a copy); text where a reader keeps no bytes. */
  jsonBytes(r: number): Buffer | string;
}

/** A batch of scanned rows; arrays are parallel and valid for indices [0, n). */
export interface ScanBatch {
  n: number;
  /** Event timestamp, µs since epoch. */
  ts: Float64Array;
  /** Ingest sequence number of each row (strictly increasing in ingest order within a source). */
  seq: Float64Array;
  /** Where each row's stored text lives (see RowText), and its index there. */
  rows: RowText[];
  idx: Uint32Array;
  /** Project ref of each row (from SourceDef.projectPath), or null when the event has none. */
  project: (string | null)[];
  /** Dictionary ids per requested hot key; the value of id k is SourceStore.hotDict(key).get(k). */
  hot: Map<string, Uint32Array>;
}

/** Type names used by the schema (BigQuery's names). */
export type FieldType = 'STRING' | 'INT64' | 'FLOAT64' | 'BOOL' | 'TIMESTAMP' | 'RECORD' | 'JSON';

export interface SchemaField {
  /** Path from the top of the event: ['metadata','request','path']. */
  path: string[];
  type: FieldType;
  /** REPEATED for records (arrays of one record) and arrays. */
  mode: 'NULLABLE' | 'REPEATED';
}
