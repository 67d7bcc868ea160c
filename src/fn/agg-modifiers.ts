// An accumulator honouring aggregate modifiers: DISTINCT, IGNORE NULLS, ORDER BY keys and LIMIT. Rows
// arrive as the arguments followed by the sort-key values; ordered rows are sorted before result().

import { activeMeter, valueTooLarge } from '../core/work-meter.ts';
import { groupKey, type Value } from '../core/values.ts';
import { compareSortKeys } from '../core/sort-keys.ts';
import type { Accumulator } from './registry.ts';

export interface AggModSpec {
  /** Function name, for error messages. */
  name: string;
  /** How many leading entries of each row are the aggregate's arguments; the rest are sort keys. */
  nArgs: number;
  distinct: boolean;
  ignoreNulls: boolean;
  keys: { desc: boolean; nullsFirst: boolean }[];
  limit: number | null;
}

/** Wraps `inner` (created without DISTINCT) so it sees the kept rows, in order, at most `limit`. */
export function modifiedAccumulator(inner: Accumulator, spec: AggModSpec): Accumulator {
  return spec.keys.length ? orderedAccumulator(inner, spec) : streamingAccumulator(inner, spec);
}

/** No ORDER BY: rows pass straight through in input order until LIMIT kept rows. */
function streamingAccumulator(inner: Accumulator, spec: AggModSpec): Accumulator {
  const isNew = distinctFilter(spec);
  let kept = 0;
  return {
    add(a) {
      if (spec.limit !== null && kept >= spec.limit) return;
      const v = a[0] ?? null;
      if (v === null && spec.ignoreNulls) return;
      if (!isNew(v)) return;
      kept++;
      inner.add(a);
    },
    result: () => inner.result(),
  };
}

/** ORDER BY: rows are buffered (with LIMIT, cut back to the best `limit` now and then) and sorted at the end. */
function orderedAccumulator(inner: Accumulator, spec: AggModSpec): Accumulator {
  let rows: Value[][] = [];
  const isNew = distinctFilter(spec);
  const cmp = rowCompare(spec);
  const cap = activeMeter().limits.maxValueBytes;
  let chars = 0;
  const compact = (): void => {
    rows.sort(cmp);
    if (spec.limit !== null && rows.length > spec.limit) rows = rows.slice(0, spec.limit);
  };
  return {
    add(a) {
      const v = a[0] ?? null;
      if (v === null && spec.ignoreNulls) return;
      // DISTINCT orders by the argument itself, so the first of equal values is as good as any.
      if (!isNew(v)) return;
      rows.push(a.slice());
      if (spec.limit !== null) {
        if (rows.length >= 2 * spec.limit + 1024) compact();
        return;
      }
      // Without LIMIT every buffered value ends up in the result: stop at the single-value cap early.
      chars += (typeof v === 'string' ? v.length : JSON.stringify(v).length) + 1;
      if (chars > cap) throw valueTooLarge(`${spec.name}: the result`, chars, cap);
      activeMeter().tick();
    },
    result: () => {
      compact();
      for (const r of rows) inner.add(r);
      return inner.result();
    },
  };
}

/** With DISTINCT, whether a value is seen for the first time (always true without DISTINCT). */
function distinctFilter(spec: AggModSpec): (v: Value) => boolean {
  if (!spec.distinct) return () => true;
  const seen = new Set<string>();
  return (v) => {
    const k = groupKey(v);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  };
}

/** BigQuery ordering of sort-key values: NULLs first ascending / last descending unless NULLS says; stable ties. */
function rowCompare(spec: AggModSpec): (a: Value[], b: Value[]) => number {
  const { nArgs, keys } = spec;
  return (a, b) => compareSortKeys(a, nArgs, b, nArgs, keys);
}
