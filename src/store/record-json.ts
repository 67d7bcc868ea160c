// Serialises JSON values in the REPEATED RECORD shape of SPEC §2 (every object becomes an array of
// one record, recursively; arrays of objects become arrays of records), validating depth and string
// sizes and growing the source schema in the same single walk.

import type { SchemaNode, SchemaTree } from './schema-tree.ts';

export interface RecordLimits {
  maxEventDepth: number;
  maxStringBytes: number;
}

/** Thrown inside the walk when a value breaks a limit; caught by the event normaliser. */
export class InvalidValue {
  constructor(readonly message: string) {}
}

export function checkString(s: string, lim: RecordLimits, what: string): void {
  const max = lim.maxStringBytes;
  if (s.length > max || (s.length * 3 > max && Buffer.byteLength(s, 'utf8') > max)) {
    throw new InvalidValue(`${what} is longer than ${max} bytes`);
  }
}

function depthError(lim: RecordLimits): InvalidValue {
  return new InvalidValue(`objects and arrays are nested deeper than ${lim.maxEventDepth} levels`);
}

/** Quoted keys, memoised: log events repeat the same few hundred keys. */
const quotedKeys = new Map<string, string>();
function quoteKey(k: string): string {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quotedKeys.size < 65536) quotedKeys.set(k, q);
  }
  return q;
}

/** A value in record shape. `depth` is the nesting level the value would open (event = 1). */
export function recordValue(v: unknown, depth: number, node: SchemaNode | null, schema: SchemaTree | null, lim: RecordLimits): string {
  switch (typeof v) {
    case 'string':
      checkString(v, lim, 'a string value');
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      if (v === null) return 'null';
      if (Array.isArray(v)) return recordArray(v, depth, node, schema, lim);
      return '[' + recordObject(v as Record<string, unknown>, depth, node, schema, lim) + ']';
    default:
      return 'null';
  }
}

/** An object's members in record shape, as `{...}` (the caller decides whether to wrap it in `[...]`). */
export function recordObject(o: Record<string, unknown>, depth: number, node: SchemaNode | null, schema: SchemaTree | null, lim: RecordLimits): string {
  if (depth > lim.maxEventDepth) throw depthError(lim);
  let s = '{';
  let first = true;
  for (const k in o) {
    const v = o[k];
    if (v === undefined) continue;
    if (k.length * 3 > lim.maxStringBytes) checkString(k, lim, 'a key');
    const child = node !== null && schema !== null ? schema.child(node, k, v) : null;
    s += (first ? '' : ',') + quoteKey(k) + ':' + recordValue(v, depth + 1, child, schema, lim);
    first = false;
  }
  return s + '}';
}

function recordArray(a: unknown[], depth: number, node: SchemaNode | null, schema: SchemaTree | null, lim: RecordLimits): string {
  if (depth > lim.maxEventDepth) throw depthError(lim);
  let s = '[';
  for (let i = 0; i < a.length; i++) {
    const e = a[i];
    if (i > 0) s += ',';
    if (typeof e === 'object' && e !== null && !Array.isArray(e)) s += recordObject(e as Record<string, unknown>, depth + 1, node, schema, lim);
    else s += recordValue(e, depth + 1, node, schema, lim);
  }
  return s + ']';
}
