// Aggregate functions (COUNT, COUNTIF, SUM, AVG, MIN, MAX, APPROX_QUANTILES, ...) as accumulators.

import { activeMeter, valueTooLarge } from '../core/work-meter.ts';
import { registerAggregate, type Accumulator, type AggDef } from './registry.ts';
import { RingqlError } from '../core/errors.ts';
import { compareValues, groupKey, sortCompare, type Value } from '../core/values.ts';
import type { SqlType } from '../core/types.ts';

/** Wraps an accumulator so that only the first occurrence of each distinct argument is added. */
function distinctWrap(acc: Accumulator): Accumulator {
  const seen = new Set<string>();
  return {
    add(args) {
      const k = groupKey(args[0] ?? null);
      if (seen.has(k)) return;
      seen.add(k);
      acc.add(args);
    },
    result: () => acc.result(),
  };
}

function agg(name: string, min: number, max: number, type: (a: SqlType[]) => SqlType, make: (consts: (Value | undefined)[]) => Accumulator): void {
  const def: AggDef = { name, minArgs: min, maxArgs: max, type, create: (c, distinct) => (distinct ? distinctWrap(make(c)) : make(c)) };
  registerAggregate(def);
}

agg('COUNT', 0, 1, () => 'INT64', () => {
  let n = 0;
  return { add(a) { if (a.length === 0 || a[0] !== null) n++; }, result: () => n };
});
agg('COUNTIF', 1, 1, () => 'INT64', () => {
  let n = 0;
  return { add(a) { if (a[0] === true) n++; }, result: () => n };
});
agg('SUM', 1, 1, (t) => (t[0] === 'INT64' ? 'INT64' : 'FLOAT64'), () => {
  let s = 0, any = false;
  return { add(a) { const v = a[0]; if (typeof v === 'number') { s += v; any = true; } }, result: () => (any ? s : null) };
});
agg('AVG', 1, 1, () => 'FLOAT64', () => {
  let s = 0, c = 0;
  return { add(a) { const v = a[0]; if (typeof v === 'number') { s += v; c++; } }, result: () => (c ? s / c : null) };
});
const extreme = (dir: 1 | -1) => (): Accumulator => {
  let best: Value = null;
  return {
    add(a) {
      const v = a[0] ?? null;
      if (v === null) return;
      if (best === null || (compareValues(v, best) ?? 0) * dir > 0) best = v;
    },
    result: () => best,
  };
};
agg('MIN', 1, 1, (t) => t[0]!, extreme(-1));
agg('MAX', 1, 1, (t) => t[0]!, extreme(1));
agg('ANY_VALUE', 1, 1, (t) => t[0]!, () => {
  let v: Value = null;
  return { add(a) { if (v === null && a[0] !== null) v = a[0] ?? null; }, result: () => v };
});
agg('LOGICAL_AND', 1, 1, () => 'BOOL', () => {
  let r: boolean | null = null;
  return { add(a) { if (a[0] === false) r = false; else if (a[0] === true && r === null) r = true; }, result: () => r };
});
agg('LOGICAL_OR', 1, 1, () => 'BOOL', () => {
  let r: boolean | null = null;
  return { add(a) { if (a[0] === true) r = true; else if (a[0] === false && r === null) r = false; }, result: () => r };
});
/** Aggregates that keep their inputs stop at the single-value cap (RINGQL_MAX_VALUE_BYTES), so memory stays bounded. */
const maxAggChars = (): number => activeMeter().limits.maxValueBytes;
const sizeOf = (v: Value): number => (typeof v === 'string' ? v.length : typeof v === 'object' && v !== null ? JSON.stringify(v).length : 8);

agg('ARRAY_AGG', 1, 1, () => 'ARRAY', () => {
  const out: Value[] = [];
  let chars = 0;
  return {
    add(a) {
      if (a[0] === null) throw new RingqlError('query_error', 'ARRAY_AGG: an array cannot contain NULL; filter NULLs with IGNORE NULLS or WHERE');
      if (out.length >= 100_000) throw new RingqlError('query_error', 'ARRAY_AGG: more than 100000 elements');
      chars += sizeOf(a[0] ?? null);
      if (chars > maxAggChars()) throw valueTooLarge('ARRAY_AGG: the array', chars, maxAggChars());
      activeMeter().tick();
      out.push(a[0] ?? null);
    },
    result: () => out,
  };
});
agg('STRING_AGG', 1, 2, () => 'STRING', (c) => {
  const parts: string[] = [];
  const sep = typeof c[1] === 'string' ? c[1] : ',';
  let chars = 0;
  return {
    add(a) {
      if (typeof a[0] !== 'string') return;
      chars += a[0].length + sep.length;
      if (chars > maxAggChars()) throw valueTooLarge('STRING_AGG: the result', chars, maxAggChars());
      parts.push(a[0]);
    },
    result: () => (parts.length ? parts.join(sep) : null),
  };
});
agg('APPROX_COUNT_DISTINCT', 1, 1, () => 'INT64', () => {
  const seen = new Set<string>();
  return { add(a) { if (a[0] !== null) seen.add(groupKey(a[0] ?? null)); }, result: () => seen.size };
});
/** Exact quantiles (a valid answer for BigQuery's approximate ones): n+1 boundaries, nearest rank. */
agg('APPROX_QUANTILES', 2, 2, (t) => (t[0] === 'ANY' ? 'ARRAY' : 'ARRAY'), (c) => {
  const n = c[1];
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 100_000) {
    throw new RingqlError('query_error', 'APPROX_QUANTILES needs a constant number of quantiles between 1 and 100000');
  }
  const vals: Value[] = [];
  return {
    add(a) { if (a[0] !== null && a[0] !== undefined) vals.push(a[0]); },
    result: () => {
      if (vals.length === 0) return null;
      vals.sort(sortCompare);
      const out: Value[] = [];
      for (let i = 0; i <= n; i++) out.push(vals[Math.round((i * (vals.length - 1)) / n)]!);
      return out;
    },
  };
});
