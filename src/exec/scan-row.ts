// One scanned event as operators see it: timestamp and project are plain fields; the stored
// JSON text is parsed only when an expression reads id, event_message, metadata or extra columns.

import type { Value } from './values.ts';

export class ScanRow {
  parsed: Record<string, Value> | undefined = undefined;
  extraParsed: Record<string, Value> | undefined = undefined;
  constructor(
    readonly json: string,
    readonly ts: number,
    readonly project: string | null,
    readonly extra: string | null,
  ) {}

  /** The event's {id, timestamp, event_message, metadata} object, parsed once. */
  base(): Record<string, Value> {
    return (this.parsed ??= JSON.parse(this.json) as Record<string, Value>);
  }

  /** The event's other top-level columns, parsed once ({} when none). */
  extras(): Record<string, Value> {
    return (this.extraParsed ??= this.extra === null ? {} : (JSON.parse(this.extra) as Record<string, Value>));
  }
}
