// The interface every output format implements (SPEC §3 "Output formats"): it is told the result's
// columns, then receives rows, and writes one body format into a BodyWriter.

import type { Value } from '../../core/values.ts';

export type OutputFormat = 'json' | 'ndjson' | 'csv';

export const OUTPUT_FORMATS: readonly OutputFormat[] = ['json', 'ndjson', 'csv'];

/** A result column as a sink sees it: its name and whether it holds TIMESTAMP µs. */
export interface SinkColumn {
  name: string;
  timestamp: boolean;
}

export interface RowSink {
  /** Whether rowBytes() may be used: the row is a stored event's JSON object, spliced as it is. */
  readonly takesRowBytes: boolean;
  /** Called once, before any row. */
  begin(cols: readonly SinkColumn[]): void;
  /** One row as its JSON object text or UTF-8 bytes (only when takesRowBytes). */
  rowBytes(bytes: string | Buffer): void;
  /** One row as values in column order (the array may be reused by the caller afterwards). */
  row(values: readonly Value[]): void;
  /** The whole body (or what take() left); called once, after the last row. */
  finish(): Buffer;
  /** Body bytes written since the last take() (about: UTF-16 units of text). */
  readonly pending: number;
  /** The body written since the last take(), to stream it; only between rows. */
  take(): Buffer;
}
