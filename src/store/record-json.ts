// Copies JSON values into the REPEATED RECORD shape of SPEC §2 (every object becomes an array of
// one record, recursively; arrays of objects become arrays of records), validating depth and string
// sizes and growing the source schema in the same single walk; callers JSON.stringify the copy once.

import type { SchemaNode } from './schema-node.ts';
import type { SchemaTree } from './schema-tree.ts';

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

/**
 * A record-shaped copy of `v` for one native JSON.stringify (one flat string, no rope of pieces).
 * `depth` is the nesting level the value would open (event = 1).
 */
export function recordCopy(v: unknown, depth: number, node: SchemaNode | null, schema: SchemaTree | null, lim: RecordLimits): unknown {
  switch (typeof v) {
    case 'string':
      checkString(v, lim, 'a string value');
      return v;
    case 'number':
    case 'boolean':
      return v;
    case 'object':
      if (v === null) return null;
      if (Array.isArray(v)) return copyArray(v, depth, node, schema, lim);
      return [copyObject(v as Record<string, unknown>, depth, node, schema, lim)];
    default:
      return null;
  }
}

/** An object's members in record shape (not wrapped; the caller decides). */
export function copyObject(o: Record<string, unknown>, depth: number, node: SchemaNode | null, schema: SchemaTree | null, lim: RecordLimits): Record<string, unknown> {
  if (depth > lim.maxEventDepth) throw depthError(lim);
  const out: Record<string, unknown> = {};
  for (const k in o) {
    const v = o[k];
    if (v === undefined) continue;
    if (k.length * 3 > lim.maxStringBytes) checkString(k, lim, 'a key');
    const child = node !== null && schema !== null ? schema.child(node, k, v) : null;
    setMember(out, k, recordCopy(v, depth + 1, child, schema, lim));
  }
  return out;
}

/** `o[k] = v`, but a `__proto__` key becomes an own member (plain assignment would set the prototype). */
export function setMember(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

function copyArray(a: unknown[], depth: number, node: SchemaNode | null, schema: SchemaTree | null, lim: RecordLimits): unknown[] {
  if (depth > lim.maxEventDepth) throw depthError(lim);
  const out = new Array<unknown>(a.length);
  for (let i = 0; i < a.length; i++) {
    const e = a[i];
    out[i] = typeof e === 'object' && e !== null && !Array.isArray(e)
      ? copyObject(e as Record<string, unknown>, depth + 1, node, schema, lim)
      : recordCopy(e, depth + 1, node, schema, lim);
  }
  return out;
}
