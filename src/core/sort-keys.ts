// Comparing rows by a list of sort keys as BigQuery orders them (ASC/DESC, NULLS FIRST/LAST), shared by the
// query's ORDER BY (exec SortExec) and the ORDER BY inside ARRAY_AGG / STRING_AGG (fn agg-modifiers).

import { sortCompare, type Value } from './values.ts';

export interface SortKeyOrder {
  desc: boolean;
  nullsFirst: boolean;
}

/** Compares `keys.length` key values of x (from `xAt`) and y (from `yAt`); 0 when all are equal (callers sort stably). */
export function compareSortKeys(x: readonly Value[], xAt: number, y: readonly Value[], yAt: number, keys: readonly SortKeyOrder[]): number {
  for (let i = 0; i < keys.length; i++) {
    const a = x[xAt + i] ?? null, b = y[yAt + i] ?? null;
    if (a === null || b === null) {
      if (a === b) continue;
      return (a === null) === keys[i]!.nullsFirst ? -1 : 1;
    }
    const c = sortCompare(a, b);
    if (c !== 0) return keys[i]!.desc ? -c : c;
  }
  return 0;
}
