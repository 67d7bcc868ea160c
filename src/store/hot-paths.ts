// Paths read straight from an ingested event: the project ref (SourceDef.projectPath) and the
// "hot" record paths kept as dictionary-encoded columns (e.g. edge request url and path).

/**
 * Stored in a hot column unless every record on the path exists exactly once and the leaf is a scalar
 * or absent — i.e. unless a JOIN UNNEST chain along the path (LEFT or CROSS alike) gives exactly one
 * row holding that value. Readers must then take the row's JSON instead.
 */
export const INEXACT: unique symbol = Symbol('inexact hot value');

/** The dictionary id of INEXACT in every hot column (0 is NULL). */
export const INEXACT_ID = 1;

/** A scalar a hot column can hold; null when the path is absent or not a scalar. */
export type HotValue = string | number | boolean | null | typeof INEXACT;

/** Hot paths per source name; the key of a path is its segments joined with '.'. */
export const DEFAULT_HOT_PATHS: Readonly<Record<string, readonly string[][]>> = {
  'edge.logs.prod': [
    ['metadata', 'request', 'url'],
    ['metadata', 'request', 'path'],
    ['metadata', 'request', 'method'],
  ],
};

export function hotKeyOf(path: readonly string[]): string {
  return path.join('.');
}

/**
 * The value at `path` in an event as sent: objects are traversed; an array on the way counts
 * only when it has exactly one element (then that element is used). Absent → undefined.
 */
export function valueAtPath(event: unknown, path: readonly string[]): unknown {
  let v: unknown = event;
  for (let i = 0; i < path.length; i++) {
    if (Array.isArray(v)) {
      if (v.length !== 1) return undefined;
      v = v[0];
    }
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[path[i]!];
  }
  if (Array.isArray(v) && v.length === 1) v = v[0];
  return v;
}

/**
 * The scalar at `path` as a JOIN UNNEST of each record on the way and a field read of the leaf would
 * see it (exactly one row, that value or NULL), or INEXACT when the chain would give no row, several
 * rows or a non-scalar value.
 */
export function hotValueAt(event: unknown, path: readonly string[]): HotValue {
  let v: unknown = event;
  for (let i = 0; i < path.length; i++) {
    if (Array.isArray(v)) {
      if (v.length !== 1) return INEXACT;
      v = v[0];
    }
    if (typeof v !== 'object' || v === null) return INEXACT;
    v = (v as Record<string, unknown>)[path[i]!];
  }
  if (v === undefined || v === null) return null;
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : INEXACT;
}

/** The project ref at `path`: strings as they are, numbers as text, anything else null. */
export function projectAt(event: unknown, path: readonly string[]): string | null {
  const v = valueAtPath(event, path);
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
}
