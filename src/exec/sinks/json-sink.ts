// The default body `{"result":[...rows...]}` (SPEC §3): stored rows are spliced from their bytes.

import { BodyWriter } from '../body-writer.ts';
import type { Value } from '../../core/values.ts';
import { ByteChunks } from './byte-chunks.ts';
import type { RowSink, SinkColumn } from './row-sink.ts';
import { valueWriter } from './value-text.ts';

/** Writes the rows of one result as JSON objects, `sep` before every row but the first. */
export class JsonObjectsSink implements RowSink {
  readonly takesRowBytes = true;
  protected readonly out = new BodyWriter();
  /** Rows made from values are encoded as they are made (see csv-sink.ts); stored rows go to `out` as they are. */
  private readonly bytes = new ByteChunks(this.out);
  private keys: string[] = [];
  private fmts: ((v: Value) => string)[] = [];
  private rows = 0;

  constructor(private readonly prefix: string, private readonly sep: string, private readonly after: string, private readonly suffix: string) {}

  begin(cols: readonly SinkColumn[]): void {
    this.keys = cols.map((c, i) => (i === 0 ? '{' : ',') + JSON.stringify(c.name) + ':');
    this.fmts = cols.map((c) => valueWriter(c.timestamp));
    if (this.prefix) this.out.write(this.prefix);
  }

  rowBytes(bytes: string | Buffer): void {
    this.bytes.flush();
    if (this.rows++ > 0 && this.sep) this.out.write(this.sep);
    this.out.write(bytes);
    if (this.after) this.out.write(this.after);
  }

  row(values: readonly Value[]): void {
    const { keys, fmts } = this;
    let s = this.rows++ > 0 ? this.sep : '';
    for (let i = 0; i < keys.length; i++) s += keys[i] + fmts[i]!(values[i]!);
    this.bytes.write((keys.length ? s + '}' : s + '{}') + this.after);
  }

  get pending(): number {
    return this.out.pending + this.bytes.pending;
  }

  take(): Buffer {
    return this.bytes.take();
  }

  finish(): Buffer {
    this.bytes.flush();
    if (this.suffix) this.out.write(this.suffix);
    return this.out.finish();
  }
}

export class JsonSink extends JsonObjectsSink {
  constructor() {
    super('{"result":[', ',', '', ']}');
  }
}
