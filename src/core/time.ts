// Timestamps as integer µs since the epoch (UTC): parsing (ISO 8601 / BigQuery strings; epoch numbers
// scaled by digit count: 1–10 digits = s, 11–13 = ms, 14–16 = µs, 17–19 = ns, floored to µs),
// their text forms and the clock. Units: time-units.ts; calendar: calendar.ts; TRUNC/ADD/DIFF: time-arithmetic.ts.

import { daysFromCivil, daysInMonth, toCivil, type CivilTime } from './calendar.ts';
import { MAX_TIMESTAMP_US, MIN_TIMESTAMP_US, US_PER_MS, US_PER_SECOND } from './time-units.ts';

const ISO_RE =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[Tt ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(?:(?:\s?)([Zz]|[+-]\d{2}(?::?\d{2})?)|\s+UTC|\s+Z)?$/;

/**
 * Parses a timestamp into integer µs since the epoch, or null when it is not one.
 * Strings: `YYYY-MM-DD`, `YYYY-MM-DD[T ]HH:MM[:SS[.f{1,9}]]` with an optional zone `Z`, `±HH:MM`,
 * `±HHMM`, `±HH` or ` UTC` (none = UTC); fractions beyond µs are truncated.
 * Numbers: finite integers scaled by the digit count of their absolute value (see file header).
 */
export function parseTimestamp(value: unknown): number | null {
  if (typeof value === 'number') return parseEpochNumber(value);
  if (typeof value === 'string') return parseTimestampString(value);
  if (value instanceof EpochDigits) return parseEpochDigits(value.digits);
  return null;
}

/**
 * An epoch number as its JSON digits: a 17-19 digit (ns) or 16-digit (µs) value loses precision as
 * a double, so ingest hands the exact text over (see store/exact-epochs.ts).
 */
export class EpochDigits {
  constructor(readonly digits: string) {}
}

/** `parseEpochNumber` on exact digits (`-?\d+`): the same scaling, floored to µs exactly. */
function parseEpochDigits(text: string): number | null {
  if (!/^-?\d+$/.test(text)) return null;
  const neg = text[0] === '-';
  const digits = (neg ? text.slice(1) : text).replace(/^0+(?=\d)/, '');
  if (digits.length > 19) return null;
  const v = BigInt(text);
  const n = digits === '0' ? 1 : digits.length;
  let us: bigint;
  if (n <= 10) us = v * 1_000_000n;
  else if (n <= 13) us = v * 1_000n;
  else if (n <= 16) us = v;
  else us = neg ? -((-v + 999n) / 1000n) : v / 1000n;
  if (us < BigInt(MIN_TIMESTAMP_US) || us > 253_402_300_799_999_999n) return null;
  return Number(us);
}

/** A TIMESTAMP's µs as exact integer JSON text (the double nearest the maximum stands for the maximum). */
export function timestampJson(us: number): string {
  if (Number.isSafeInteger(us)) return String(us);
  if (us === MAX_TIMESTAMP_US) return '253402300799999999';
  return Number.isInteger(us) ? BigInt(us).toString() : String(us);
}

function parseEpochNumber(v: number): number | null {
  if (!Number.isFinite(v) || !Number.isInteger(v)) return null;
  const a = Math.abs(v);
  let us: number;
  if (a < 1e10) us = v * US_PER_SECOND;
  else if (a < 1e13) us = v * US_PER_MS;
  else if (a < 1e16) us = v;
  else if (a < 1e19) us = Math.floor(v / 1000);
  else return null;
  return us < MIN_TIMESTAMP_US || us > MAX_TIMESTAMP_US ? null : us;
}

function parseTimestampString(s: string): number | null {
  const m = ISO_RE.exec(s.trim());
  if (!m) return null;
  const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  const h = m[4] === undefined ? 0 : Number(m[4]);
  const mi = m[5] === undefined ? 0 : Number(m[5]);
  const sec = m[6] === undefined ? 0 : Number(m[6]);
  if (h > 23 || mi > 59 || sec > 59) return null;
  const frac = m[7] === undefined ? 0 : Number((m[7] + '00000').slice(0, 6));
  let offsetMin = 0;
  const z = m[8];
  if (z !== undefined && z !== 'Z' && z !== 'z') {
    const sign = z[0] === '-' ? -1 : 1;
    const digits = z.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (oh > 23 || om > 59) return null;
    offsetMin = sign * (oh * 60 + om);
  }
  const seconds = daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - offsetMin * 60;
  const us = seconds * US_PER_SECOND + frac;
  return us < MIN_TIMESTAMP_US || us > MAX_TIMESTAMP_US ? null : us;
}

/** `n` zero-padded to `width` digits (the sign before the padding). */
export function pad(n: number, width: number): string {
  const s = String(Math.abs(n));
  const p = s.length >= width ? s : '0'.repeat(width - s.length) + s;
  return n < 0 ? '-' + p : p;
}

function datetimeText(c: CivilTime): string {
  const base = `${pad(c.year, 4)}-${pad(c.month, 2)}-${pad(c.day, 2)}T${pad(c.hour, 2)}:${pad(c.minute, 2)}:${pad(c.second, 2)}`;
  return c.micros === 0 ? base : base + '.' + pad(c.micros, 6);
}

/** `2024-01-02T03:04:05.123456Z`; the fraction is omitted when zero. */
export function formatTimestamp(us: number): string {
  return datetimeText(toCivil(us)) + 'Z';
}

/** DATETIME text of SPEC §2: `YYYY-MM-DDTHH:MM:SS`, plus `.ffffff` only when non-zero. */
export function formatDatetime(us: number): string {
  return datetimeText(toCivil(us));
}

/** Current time in integer µs since the epoch (sub-millisecond part from the monotonic clock). */
export function nowMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

