// One scanned event as operators see it: timestamp and project are plain fields; the stored
// JSON text is decoded and parsed only when an expression reads id, event_message, metadata or
// extra columns, and an answer made of whole stored rows copies their bytes without decoding.

import type { RowText } from '../store/types.ts';
import type { Value } from '../core/values.ts';

export class ScanRow {
  parsed: Record<string, Value> | undefined = undefined;
  extraParsed: Record<string, Value> | undefined = undefined;
  private text: string | undefined = undefined;
  constructor(
    private readonly rows: RowText,
    private readonly r: number,
    readonly ts: number,
    readonly project: string | null,
  ) {}

  /** The stored JSON text (decoded once). */
  get json(): string {
    return (this.text ??= this.rows.json(this.r));
  }

  /** The stored JSON as it is kept: UTF-8 bytes (no decoding). */
  jsonBytes(): Buffer | string {
    return this.rows.jsonBytes(this.r);
  }

  /** The event's {id, timestamp, event_message, metadata} object, parsed once. */
  base(): Record<string, Value> {
    return (this.parsed ??= JSON.parse(this.json) as Record<string, Value>);
  }

  /**
   * `id` or `event_message` read straight from the stored text, which always starts
   * `{"id":<string>,"timestamp":<int>,"event_message":<string|null>,` (src/store/event.ts), so a
   * single column needs no parse of the whole event.
   */
  head(name: 'id' | 'event_message'): Value {
    if (this.parsed !== undefined) return this.parsed[name] ?? null;
    const j = this.json;
    let at = 6; // after {"id":
    if (name === 'event_message') {
      const end = stringEnd(j, at);
      const ts = j.indexOf(',"event_message":', end);
      if (end < 0 || ts < 0) return this.base()[name] ?? null;
      at = ts + 17;
      if (j.startsWith('null', at)) return null;
    }
    const end = stringEnd(j, at);
    if (end < 0) return this.base()[name] ?? null;
    const lit = j.slice(at, end);
    return lit.includes('\\') ? (JSON.parse(lit) as string) : lit.slice(1, -1);
  }

  /**
   * Forgets the decoded text and parsed objects (they are made again if asked): a written row of a
   * batch of thousands need not keep kilobytes of them until the whole batch is done.
   */
  release(): void {
    this.parsed = undefined;
    this.extraParsed = undefined;
    this.text = undefined;
  }

  /** The event's other top-level columns, parsed once ({} when none). */
  extras(): Record<string, Value> {
    if (this.extraParsed === undefined) {
      const x = this.rows.extra(this.r);
      this.extraParsed = x === null ? {} : (JSON.parse(x) as Record<string, Value>);
    }
    return this.extraParsed;
  }
}

/** Index just past the JSON string literal that starts at `at` (a '"'), or -1 when none starts there. */
function stringEnd(j: string, at: number): number {
  if (j.charCodeAt(at) !== 34) return -1;
  for (let i = at + 1; i < j.length; i++) {
    const c = j.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) return i + 1;
  }
  return -1;
}
