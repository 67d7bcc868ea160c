// CAST / SAFE_CAST between the supported types with BigQuery's rules: a failed CAST is a
// query_error naming the types (never the value), a failed SAFE_CAST is NULL.

import { RingqlError } from '../core/errors.ts';
import { parseTimestamp, formatDatetime } from '../core/time.ts';
import type { SqlType } from '../core/types.ts';
import type { Value } from '../core/values.ts';

/** Casts `v` (of static type `from`; ANY = look at the value) to `to`. Returns undefined when it cannot. */
function tryCast(v: Value, from: SqlType, to: SqlType): Value | undefined {
  if (v === null) return null;
  switch (to) {
    case 'STRING':
      return toStringValue(v, from);
    case 'INT64': {
      if (typeof v === 'number') {
        if (from === 'TIMESTAMP') return undefined;
        if (!Number.isFinite(v)) return undefined;
        // BigQuery rounds half away from zero when casting FLOAT64 to INT64.
        return Number.isInteger(v) ? v : Math.sign(v) * Math.round(Math.abs(v));
      }
      if (typeof v === 'boolean') return v ? 1 : 0;
      if (typeof v === 'string') {
        const s = v.trim();
        if (/^[+-]?\d+$/.test(s)) return Number(s);
        if (/^[+-]?0x[0-9a-f]+$/i.test(s)) return s.startsWith('-') ? -Number(s.slice(1)) : Number(s.replace('+', ''));
        return undefined;
      }
      return undefined;
    }
    case 'FLOAT64': {
      if (typeof v === 'number') return from === 'TIMESTAMP' ? undefined : v;
      if (typeof v === 'string') {
        const s = v.trim();
        if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(s)) return Number(s);
        const l = s.toLowerCase();
        if (l === 'nan') return NaN;
        if (l === 'inf' || l === '+inf' || l === 'infinity' || l === '+infinity') return Infinity;
        if (l === '-inf' || l === '-infinity') return -Infinity;
        return undefined;
      }
      return undefined;
    }
    case 'BOOL': {
      if (typeof v === 'boolean') return v;
      if (typeof v === 'number' && from !== 'TIMESTAMP') return v !== 0;
      if (typeof v === 'string') {
        const l = v.trim().toLowerCase();
        if (l === 'true') return true;
        if (l === 'false') return false;
      }
      return undefined;
    }
    case 'TIMESTAMP': {
      if (from === 'TIMESTAMP' && typeof v === 'number') return v;
      if (typeof v === 'string') return parseTimestamp(v) ?? undefined;
      if (from === 'DATETIME' || from === 'DATE') return typeof v === 'string' ? parseTimestamp(v) ?? undefined : undefined;
      return undefined;
    }
    case 'DATETIME': {
      if (typeof v === 'string') {
        const us = parseTimestamp(v.replace(/(Z|[+-]\d\d(:?\d\d)?| UTC)$/i, ''));
        return us === null ? undefined : formatDatetime(us);
      }
      if (from === 'TIMESTAMP' && typeof v === 'number') return formatDatetime(v);
      return undefined;
    }
    case 'DATE': {
      if (typeof v === 'string') {
        const us = parseTimestamp(v.length > 10 ? v.slice(0, 10) : v);
        return us === null ? undefined : formatDatetime(us).slice(0, 10);
      }
      if (from === 'TIMESTAMP' && typeof v === 'number') return formatDatetime(v).slice(0, 10);
      return undefined;
    }
    case 'ANY':
      return v;
    default:
      return from === to ? v : undefined;
  }
}

/** STRING form of a value as BigQuery's CAST(x AS STRING) writes it. */
export function toStringValue(v: Value, from: SqlType): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (from === 'TIMESTAMP') return timestampToString(v);
    if (Number.isNaN(v)) return 'nan';
    if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
    return String(v);
  }
  if (v === null) return undefined;
  return undefined;
}

/** BigQuery's canonical TIMESTAMP text: `2024-01-02 03:04:05.123456+00` (fraction only when non-zero). */
export function timestampToString(us: number): string {
  return formatDatetime(us).replace('T', ' ') + '+00';
}

export function castValue(v: Value, from: SqlType, to: SqlType, safe: boolean): Value {
  const r = tryCast(v, from, to);
  if (r !== undefined) return r;
  if (safe) return null;
  // The value itself is not quoted: it may come from a row (SPEC §6/§11: errors do not echo row data).
  throw new RingqlError('query_error', `Cannot cast a ${typeName(v, from)} value to ${to} (the value is not shown: errors never quote row data); use SAFE_CAST to get NULL instead`);
}

/** The type to name in a cast error: the static one, or for ANY the value's own. */
function typeName(v: Value, from: SqlType): string {
  if (from !== 'ANY') return from;
  if (typeof v === 'string') return 'STRING';
  if (typeof v === 'boolean') return 'BOOL';
  if (typeof v === 'number') return Number.isInteger(v) ? 'INT64' : 'FLOAT64';
  if (Array.isArray(v)) return 'ARRAY';
  return 'STRUCT';
}
