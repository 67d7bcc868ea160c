// The JSON text of one result value as the JSON body prints it: TIMESTAMP columns print exact µs
// (the maximum included); every other value through valueToJson. Shared by all output formats.

import { timestampJson } from '../../core/time.ts';
import { valueToJson, type Value } from '../../core/values.ts';

export function timestampValueJson(v: Value): string {
  return typeof v === 'number' && Number.isInteger(v) ? timestampJson(v) : valueToJson(v);
}

/** Per column: its JSON writer. */
export function valueWriter(timestamp: boolean): (v: Value) => string {
  return timestamp ? timestampValueJson : valueToJson;
}
