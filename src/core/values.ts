// Run-time value semantics shared by every operator: BigQuery comparison, equality, truthiness
// and the dynamic kind of a value. NULL is null; TIMESTAMP is an integer of µs (static type says so).

export type Value = null | boolean | number | string | Value[] | { [k: string]: Value } | IntervalValue;

/** INTERVAL n unit: only ever an argument of date functions. */
export interface IntervalValue {
  interval: true;
  n: number;
  unit: string;
}

export function isInterval(v: unknown): v is IntervalValue {
  return typeof v === 'object' && v !== null && (v as { interval?: unknown }).interval === true;
}

/**
 * Three-way comparison of two non-null values of the same kind; null when the kinds differ
 * (a value whose type differs from the schema's reads as NULL in typed expressions).
 */
export function compareValues(a: Value, b: Value): number | null {
  const ta = typeof a;
  if (ta !== typeof b) return null;
  if (ta === 'number') {
    const x = a as number, y = b as number;
    if (x < y) return -1;
    if (x > y) return 1;
    if (x === y) return 0;
    // NaN sorts first and equals itself in ORDER BY (BigQuery); comparisons with NaN are false.
    return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : -1) : 1;
  }
  if (ta === 'string') return a === b ? 0 : (a as string) < (b as string) ? -1 : 1;
  if (ta === 'boolean') return a === b ? 0 : a ? 1 : -1;
  return null;
}

/** SQL `=`: null when either side is NULL or the kinds differ. */
export function sqlEquals(a: Value, b: Value): boolean | null {
  if (a === null || b === null) return null;
  const t = typeof a;
  if (t !== typeof b) return null;
  if (t === 'object') return null;
  return a === b;
}

/** Grouping/DISTINCT key of a value: equal values (NULLs included) give equal keys. */
export function groupKey(v: Value): string {
  if (v === null) return '\u0000n';
  switch (typeof v) {
    case 'string': return 's' + v;
    case 'number': return 'd' + v;
    case 'boolean': return v ? 'bt' : 'bf';
    default: return 'j' + JSON.stringify(v);
  }
}

/**
 * Total order for ORDER BY: NULLs first ascending (BigQuery), then by value; values of
 * different kinds order by kind so sorting never throws.
 */
export function sortCompare(a: Value, b: Value): number {
  if (a === null) return b === null ? 0 : -1;
  if (b === null) return 1;
  const c = compareValues(a, b);
  if (c !== null) return c;
  const ka = kindRank(a), kb = kindRank(b);
  if (ka !== kb) return ka - kb;
  const sa = JSON.stringify(a), sb = JSON.stringify(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function kindRank(v: Value): number {
  switch (typeof v) {
    case 'boolean': return 1;
    case 'number': return 2;
    case 'string': return 3;
    default: return Array.isArray(v) ? 4 : 5;
  }
}

/** Serialises a result value as BigQuery's JSON does: NaN/Infinity become strings. */
export function valueToJson(v: Value): string {
  if (typeof v === 'number' && !Number.isFinite(v)) {
    return Number.isNaN(v) ? '"NaN"' : v > 0 ? '"Infinity"' : '"-Infinity"';
  }
  return v === undefined ? 'null' : JSON.stringify(v);
}
