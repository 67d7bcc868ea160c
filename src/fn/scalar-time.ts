// TIMESTAMP / DATETIME functions over integer microseconds (SPEC §2, §7). CURRENT_TIMESTAMP is
// folded by the binder with the query's clock, so every kernel here is pure.

import { registerScalar, simple } from './registry.ts';
import { RingqlError } from '../core/errors.ts';
import { parseTimestamp, formatDatetime } from '../core/time.ts';
import { truncTimestamp, addInterval, diffTimestamp } from '../core/time-arithmetic.ts';
import { formatTimestampPattern } from '../core/format-timestamp.ts';
import { isInterval, type Value } from '../core/values.ts';

const MAX_ARRAY = 100_000;

/** A string that is no timestamp: the string is not quoted, as it may come from a row (errors never echo row data). */
const INVALID_TIME_TEXT = (type: 'TIMESTAMP' | 'DATETIME'): string =>
  `Invalid ${type} string (the value is not shown: errors never quote row data); expected ISO 8601 such as 2024-01-15 05:00:00 or 2024-01-15T05:00:00Z; use SAFE_CAST(x AS ${type}) to get NULL instead`;

/** A TIMESTAMP argument: µs number, or a string literal read as a timestamp. */
function ts(v: Value): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return parseTimestamp(v);
  return null;
}

/** Offset in µs of a time zone argument; only UTC and fixed offsets are supported. */
function zoneOffsetUs(z: Value): number {
  if (z === undefined || z === null) return 0;
  const s = String(z).trim();
  if (/^(utc|etc\/utc|z|gmt|etc\/gmt)$/i.test(s)) return 0;
  const m = /^(?:utc)?([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(s);
  if (m) return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60) * 1_000_000;
  throw new RingqlError('query_error', `Time zone "${s}" is not supported; use 'UTC' or a fixed offset such as '+02:00'`);
}

function unitOf(v: Value): string {
  if (typeof v !== 'string') throw new RingqlError('query_error', 'Expected a date part such as MINUTE, HOUR or DAY');
  return v.toUpperCase();
}

registerScalar({ ...simple('TIMESTAMP_TRUNC', 2, 3, 'TIMESTAMP', (t, part, zone) => {
  const us = ts(t);
  if (us === null) return null;
  const off = zoneOffsetUs(zone ?? null);
  return truncTimestamp(us + off, unitOf(part)) - off;
}), datePartArgs: [1] });

function shift(sign: 1 | -1) {
  return (t: Value, iv: Value): Value => {
    const us = ts(t);
    if (us === null) return null;
    if (!isInterval(iv)) throw new RingqlError('query_error', 'Expected an INTERVAL argument, e.g. INTERVAL 1 HOUR');
    return addInterval(us, sign * iv.n, iv.unit);
  };
}
registerScalar(simple('TIMESTAMP_SUB', 2, 2, 'TIMESTAMP', shift(-1)));
registerScalar(simple('TIMESTAMP_ADD', 2, 2, 'TIMESTAMP', shift(1)));
registerScalar({ ...simple('TIMESTAMP_DIFF', 3, 3, 'INT64', (a, b, part) => {
  const x = ts(a), y = ts(b);
  return x === null || y === null ? null : diffTimestamp(x, y, unitOf(part));
}), datePartArgs: [2] });

registerScalar(simple('TIMESTAMP', 1, 2, 'TIMESTAMP', (v, zone) => {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return null;
  const hasZone = /(Z|[+-]\d\d(:?\d\d)?| UTC)$/i.test(v.trim());
  const us = parseTimestamp(v);
  if (us === null) throw new RingqlError('query_error', INVALID_TIME_TEXT('TIMESTAMP'));
  return hasZone ? us : us - zoneOffsetUs(zone ?? null);
}));
registerScalar(simple('TIMESTAMP_MICROS', 1, 1, 'TIMESTAMP', (v) => (typeof v === 'number' ? Math.trunc(v) : null)));
registerScalar(simple('TIMESTAMP_MILLIS', 1, 1, 'TIMESTAMP', (v) => (typeof v === 'number' ? Math.trunc(v) * 1000 : null)));
registerScalar(simple('TIMESTAMP_SECONDS', 1, 1, 'TIMESTAMP', (v) => (typeof v === 'number' ? Math.trunc(v) * 1_000_000 : null)));
registerScalar(simple('UNIX_MICROS', 1, 1, 'INT64', (v) => ts(v)));
registerScalar(simple('UNIX_MILLIS', 1, 1, 'INT64', (v) => { const u = ts(v); return u === null ? null : Math.floor(u / 1000); }));
registerScalar(simple('UNIX_SECONDS', 1, 1, 'INT64', (v) => { const u = ts(v); return u === null ? null : Math.floor(u / 1_000_000); }));

registerScalar(simple('DATETIME', 1, 2, 'DATETIME', (v, zone) => {
  if (typeof v === 'number') return formatDatetime(v + zoneOffsetUs(zone ?? null));
  if (typeof v === 'string') {
    const us = parseTimestamp(v);
    if (us === null) throw new RingqlError('query_error', INVALID_TIME_TEXT('DATETIME'));
    return formatDatetime(us + zoneOffsetUs(zone ?? null));
  }
  return null;
}));
registerScalar(simple('DATE', 1, 2, 'DATE', (v, zone) => {
  const us = ts(v);
  return us === null ? null : formatDatetime(us + zoneOffsetUs(zone ?? null)).slice(0, 10);
}));
registerScalar(simple('FORMAT_TIMESTAMP', 2, 3, 'STRING', (f, t, zone) => {
  const us = ts(t);
  if (typeof f !== 'string' || us === null) return null;
  return formatTimestampPattern(f, us + zoneOffsetUs(zone ?? null));
}));
registerScalar(simple('GENERATE_TIMESTAMP_ARRAY', 3, 3, 'ARRAY', (a, b, iv) => {
  const start = ts(a), end = ts(b);
  if (start === null || end === null) return null;
  if (!isInterval(iv)) throw new RingqlError('query_error', 'GENERATE_TIMESTAMP_ARRAY needs an INTERVAL step');
  if (iv.n <= 0) throw new RingqlError('query_error', 'GENERATE_TIMESTAMP_ARRAY: the step must be positive');
  const out: number[] = [];
  for (let t = start; t <= end; t = addInterval(t, iv.n, iv.unit)) {
    if (out.length >= MAX_ARRAY) throw new RingqlError('query_error', `GENERATE_TIMESTAMP_ARRAY would produce more than ${MAX_ARRAY} elements`);
    out.push(t);
  }
  return out;
}));

/** EXTRACT(part FROM ts): the binder calls this with the part as a constant first argument. */
registerScalar(simple('$EXTRACT', 2, 2, 'INT64', (part, t) => {
  const us = ts(t);
  if (us === null) return null;
  const p = unitOf(part);
  const iso = formatDatetime(us);
  const d = new Date(Math.floor(us / 1000));
  switch (p) {
    case 'YEAR': return d.getUTCFullYear();
    case 'MONTH': return d.getUTCMonth() + 1;
    case 'DAY': return d.getUTCDate();
    case 'HOUR': return d.getUTCHours();
    case 'MINUTE': return d.getUTCMinutes();
    case 'SECOND': return d.getUTCSeconds();
    case 'MILLISECOND': return Math.floor((((us % 1_000_000) + 1_000_000) % 1_000_000) / 1000);
    case 'MICROSECOND': return ((us % 1_000_000) + 1_000_000) % 1_000_000;
    case 'DAYOFWEEK': return d.getUTCDay() + 1;
    case 'DAYOFYEAR': return Math.floor((Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
    case 'QUARTER': return Math.floor(d.getUTCMonth() / 3) + 1;
    case 'DATE': return iso.slice(0, 10);
    default: throw new RingqlError('query_error', `EXTRACT does not support ${p}`);
  }
}));
