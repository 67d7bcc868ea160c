// What the binder needs to know about a source (its name, columns and their types) and how the
// executor scans it. Implemented over the store by src/endpoints/catalog-from-store.ts.

import type { SourceDef, ScanSpec, ScanBatch, SchemaField } from '../store/types.ts';
import type { SqlType } from '../core/types.ts';
import type { RowRun } from '../store/scan-runs.ts';
import type { HotDict } from '../store/hot-dict.ts';

export interface SourceHandle {
  readonly def: SourceDef;
  /** Top-level columns known for the source (the fixed four, `project` where it is top level, every key seen). */
  columns(): string[];
  /** Static type of a top-level column. */
  columnType(name: string): SqlType;
  /** Schema entry of a field inside records (path from the event's top, e.g. ['metadata','status']); undefined: unknown. */
  schemaField?(path: readonly string[]): SchemaField | undefined;
  /** Names of a record's fields in the schema's order (a struct subscript `m[0]` reads the first). */
  schemaChildren?(path: readonly string[]): readonly SchemaField[];
  scan(spec: ScanSpec): Iterable<ScanBatch>;
  /** How many rows scan(spec) would return, from the store's indexes (absent: scan and count). */
  countRows?(spec: ScanSpec): number;
  /** What scan(spec) returns, in any order, as runs of rows of each segment's own columns (absent: batches only). */
  scanRuns?(spec: ScanSpec): Iterable<RowRun>;
  /** Dictionary of a hot column (see ScanSpec.hot). */
  hotDict?(key: string): HotDict;
  readonly hotKeys?: readonly string[];
  /** A number that changes whenever the schema the binder reads (fields, top-level columns) does. */
  schemaStamp?(): number;
  /** Sequence number of the newest stored event (incremental aggregates). */
  lastSeq(): number;
  /** Events older than this (µs) are evicted. */
  watermark(): number;
}

export interface Catalog {
  /** Looks a source up by its exact name (case-sensitive, as BigQuery table names are). */
  source(name: string): SourceHandle | undefined;
  sourceNames(): string[];
}
