// The field names of the records an UNNEST yields (a "value table" of STRUCT in BigQuery's terms),
// known statically from the array expression or the source schema; unqualified names may read them.

import type { BExpr } from './bound.ts';
import { notePin } from './param-trace.ts';
import { originOf } from './origin-of.ts';

/**
 * Field names of the array's element records, in order, or undefined when the elements are not
 * records or their fields are not known before running (JSON, a subquery's array, an unknown path).
 * Literal arrays take the names of their first STRUCT, as BigQuery types `[STRUCT(1 AS x), (2)]`.
 */
export function elementFields(array: BExpr): string[] | undefined {
  if (array.k === 'array') {
    const first = array.elements[0];
    return first?.k === 'struct' ? first.fields.map((f) => f.name) : undefined;
  }
  if (array.k === 'const') {
    notePin(array);
    const first = Array.isArray(array.value) ? array.value[0] : undefined;
    const isRecord = typeof first === 'object' && first !== null && !Array.isArray(first) && !('interval' in first);
    return isRecord ? Object.keys(first) : undefined;
  }
  const o = originOf(array);
  if (!o || o.element || o.path.length < 1) return undefined;
  const f = o.scan.source.schemaField?.(o.path);
  if (!f || f.type !== 'RECORD' || f.mode !== 'REPEATED') return undefined;
  return (o.scan.source.schemaChildren?.(o.path) ?? []).map((c) => c.path[c.path.length - 1]!);
}
