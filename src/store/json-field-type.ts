// The BigQuery type and mode a JSON value gives a schema field the first time it is seen.

import type { FieldType } from './types.ts';

/** The BigQuery type and mode of a JSON value, or null when it tells nothing (null, empty array). */
export function typeOf(v: unknown): [FieldType, 'NULLABLE' | 'REPEATED'] | null {
  switch (typeof v) {
    case 'string': return ['STRING', 'NULLABLE'];
    case 'number': return [Number.isInteger(v) ? 'INT64' : 'FLOAT64', 'NULLABLE'];
    case 'boolean': return ['BOOL', 'NULLABLE'];
    case 'object': {
      if (v === null) return null;
      if (!Array.isArray(v)) return ['RECORD', 'REPEATED'];
      for (const e of v) {
        if (e === null || e === undefined) continue;
        const t = typeOf(e);
        if (t === null) continue;
        return [Array.isArray(e) ? 'JSON' : t[0], 'REPEATED'];
      }
      return null;
    }
    default: return null;
  }
}
