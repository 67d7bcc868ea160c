// Picks the sink of an output format.

import { CsvSink } from './csv-sink.ts';
import { JsonSink } from './json-sink.ts';
import { NdjsonSink } from './ndjson-sink.ts';
import type { OutputFormat, RowSink } from './row-sink.ts';

/** `redact` only matters where the body is not JSON text (CSV): JSON and NDJSON are redacted as text afterwards. */
export function makeSink(format: OutputFormat, redact = false): RowSink {
  if (format === 'ndjson') return new NdjsonSink();
  if (format === 'csv') return new CsvSink(redact);
  return new JsonSink();
}

/** The Content-Type of each format's body. */
export const CONTENT_TYPES: Record<OutputFormat, string> = {
  json: 'application/json; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
};
