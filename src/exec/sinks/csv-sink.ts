// `text/csv` (SPEC §3, RFC 4180): a header row of column names, then one record per row, CRLF line
// ends; NULL is an empty field, strings as they are, nested values as JSON text; fields holding a
// comma, quote, CR or LF are quoted with quotes doubled. With redaction on, string content is redacted.

import { BodyWriter } from '../body-writer.ts';
import type { Value } from '../../core/values.ts';
import { redactJsonText } from '../../redact/redact-json.ts';
import { redactString } from '../../redact/redact-string.ts';
import { ByteChunks } from './byte-chunks.ts';
import type { RowSink, SinkColumn } from './row-sink.ts';
import { valueWriter } from './value-text.ts';

const NEEDS_QUOTES = /[",\r\n]/;

/** One RFC 4180 field. */
export function csvField(s: string): string {
  return NEEDS_QUOTES.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

/**
 * Records are encoded to UTF-8 as they are made (ByteChunks), so a streamed CSV body holds bytes
 * outside the JS heap between chunks, not thousands of record strings that outlive young-generation
 * collections (that made the heap, and the process, grow by several times the chunk size).
 */
export class CsvSink implements RowSink {
  readonly takesRowBytes = false;
  private readonly out = new BodyWriter();
  private readonly bytes = new ByteChunks(this.out);
  private fmts: ((v: Value) => string)[] = [];

  constructor(private readonly redact = false) {}

  begin(cols: readonly SinkColumn[]): void {
    this.fmts = cols.map((c) => valueWriter(c.timestamp));
    this.bytes.write(cols.map((c) => csvField(c.name)).join(',') + '\r\n');
  }

  rowBytes(): void {
    throw new Error('internal: CsvSink takes rows as values');
  }

  row(values: readonly Value[]): void {
    const { fmts } = this;
    let s = '';
    for (let i = 0; i < fmts.length; i++) {
      if (i > 0) s += ',';
      s += csvField(this.text(values[i]!, fmts[i]!));
    }
    this.bytes.write(s + '\r\n');
  }

  /**
   * A value's CSV text: null is empty, a string is itself (its JSON text parsed back is the same
   * string, so that round trip is skipped), anything else its JSON text, a JSON string's content.
   */
  private text(v: Value, fmt: (v: Value) => string): string {
    if (v === null || v === undefined) return '';
    if (typeof v === 'string') return this.redact ? redactString(v) : v;
    const json = fmt(v);
    if (json === 'null') return '';
    if (json.charCodeAt(0) === 34) {
      const s = JSON.parse(json) as string;
      return this.redact ? redactString(s) : s;
    }
    return this.redact ? redactJsonText(json) : json;
  }

  get pending(): number {
    return this.out.pending + this.bytes.pending;
  }

  take(): Buffer {
    return this.bytes.take();
  }

  finish(): Buffer {
    return this.bytes.finish();
  }
}
