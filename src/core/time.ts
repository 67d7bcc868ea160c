// Timestamps as integer µs since the epoch (UTC): parsing (ISO 8601 / BigQuery strings; epoch numbers
// scaled by digit count: 1–10 digits = s, 11–13 = ms, 14–16 = µs, 17–19 = ns, floored to µs),
// formatting, truncation, calendar arithmetic and FORMAT_TIMESTAMP. Integer math; Date never needed.

import { fixedPartUs } from './date-parts.ts';
import { RingqlError } from './errors.ts';

export const US_PER_MS = 1_000;
export const US_PER_SECOND = 1_000_000;
export const US_PER_MINUTE = 60 * US_PER_SECOND;
export const US_PER_HOUR = 60 * US_PER_MINUTE;
export const US_PER_DAY = 24 * US_PER_HOUR;

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z, the BigQuery TIMESTAMP range. */
export const MIN_TIMESTAMP_US = -62_135_596_800_000_000;
export const MAX_TIMESTAMP_US = 253_402_300_799_999_999;

const ISO_RE =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[Tt ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(?:(?:\s?)([Zz]|[+-]\d{2}(?::?\d{2})?)|\s+UTC|\s+Z)?$/;

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Inverse of daysFromCivil: [year, month 1-12, day 1-31]. */
export function civilFromDays(z: number): [number, number, number] {
  const zz = z + 719468;
  const era = Math.floor(zz / 146097);
  const doe = zz - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [era * 400 + yoe + (m <= 2 ? 1 : 0), m, d];
}

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function daysInMonth(y: number, m: number): number {
  return m === 2 ? (isLeapYear(y) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Floor division and matching non-negative remainder, for negative timestamps. */
function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}
function floorMod(a: number, b: number): number {
  const r = a % b;
  return r < 0 ? r + b : r;
}

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
 * a double, so ingest hands the exact text over (see http/exact-epochs.ts).
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

/** Broken-down UTC fields of a µs timestamp. */
export interface CivilTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  micros: number;
  /** Days since the epoch (for weekday and day-of-year). */
  days: number;
}

/**
 * Above 2^53 µs (after 2255) a double holds µs in steps of up to 32: 9999-12-31 23:59:59.999999 rounds
 * to the double that is also 10000-01-01, and that double reads as the maximum, never as year 10000.
 */
const MAX_CIVIL: CivilTime = { year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59, micros: 999_999, days: daysFromCivil(9999, 12, 31) };

export function toCivil(us: number): CivilTime {
  if (us === MAX_TIMESTAMP_US) return { ...MAX_CIVIL };
  const days = floorDiv(us, US_PER_DAY);
  const rem = us - days * US_PER_DAY;
  const secs = Math.floor(rem / US_PER_SECOND);
  const micros = rem - secs * US_PER_SECOND;
  const [year, month, day] = civilFromDays(days);
  return { year, month, day, hour: Math.floor(secs / 3600), minute: Math.floor(secs / 60) % 60, second: secs % 60, micros, days };
}

function pad(n: number, width: number): string {
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

/** Normalises a date-part name: upper case, `WEEK(MONDAY)` / `WEEK MONDAY` → `WEEK_MONDAY`. */
function normUnit(unit: string): string {
  const u = unit.trim().toUpperCase().replace(/\s+/g, '');
  const m = /^WEEK\((\w+)\)$/.exec(u);
  return m ? `WEEK_${m[1]}` : u;
}

const WEEKDAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];

function badUnit(unit: string, what: string): RingqlError {
  return new RingqlError('query_error', `Unsupported date part ${unit} for ${what}`);
}

/** Start of the week (weekday 0 = Sunday) holding the given epoch day. 1970-01-01 was a Thursday (4). */
function weekStartDay(days: number, startDow: number): number {
  const dow = floorMod(days + 4, 7);
  return days - floorMod(dow - startDow, 7);
}

/** The largest double below MAX_TIMESTAMP_US's: floors of the maximum computed from it stay in year 9999. */
const BELOW_MAX_US = 253_402_300_799_999_968;

/** TIMESTAMP_TRUNC(us, unit) in UTC. */
export function truncTimestamp(us: number, unit: string): number {
  const u = normUnit(unit);
  if (us === MAX_TIMESTAMP_US && u !== 'MICROSECOND') us = BELOW_MAX_US;
  switch (u) {
    case 'MICROSECOND': return us;
    case 'MILLISECOND': return floorDiv(us, US_PER_MS) * US_PER_MS;
    case 'SECOND': return floorDiv(us, US_PER_SECOND) * US_PER_SECOND;
    case 'MINUTE': return floorDiv(us, US_PER_MINUTE) * US_PER_MINUTE;
    case 'HOUR': return floorDiv(us, US_PER_HOUR) * US_PER_HOUR;
    case 'DAY': return floorDiv(us, US_PER_DAY) * US_PER_DAY;
    case 'WEEK': return weekStartDay(floorDiv(us, US_PER_DAY), 0) * US_PER_DAY;
    case 'ISOWEEK': return weekStartDay(floorDiv(us, US_PER_DAY), 1) * US_PER_DAY;
    case 'MONTH': case 'QUARTER': case 'YEAR': {
      const [y, m] = civilFromDays(floorDiv(us, US_PER_DAY));
      const month = u === 'MONTH' ? m : u === 'QUARTER' ? m - ((m - 1) % 3) : 1;
      return daysFromCivil(y, month, 1) * US_PER_DAY;
    }
    case 'ISOYEAR': {
      // The ISO year starts on the Monday of the week holding January 4th.
      const days = floorDiv(us, US_PER_DAY);
      const [y] = civilFromDays(days);
      let start = weekStartDay(daysFromCivil(y, 1, 4), 1);
      if (days < start) start = weekStartDay(daysFromCivil(y - 1, 1, 4), 1);
      else {
        const next = weekStartDay(daysFromCivil(y + 1, 1, 4), 1);
        if (days >= next) start = next;
      }
      return start * US_PER_DAY;
    }
    default: {
      if (u.startsWith('WEEK_')) {
        const dow = WEEKDAYS.indexOf(u.slice(5));
        if (dow >= 0) return weekStartDay(floorDiv(us, US_PER_DAY), dow) * US_PER_DAY;
      }
      throw badUnit(unit, 'TIMESTAMP_TRUNC');
    }
  }
}


function addMonths(us: number, months: number): number {
  const days = floorDiv(us, US_PER_DAY);
  const timeOfDay = us - days * US_PER_DAY;
  const [y, m, d] = civilFromDays(days);
  const total = y * 12 + (m - 1) + months;
  const ny = Math.floor(total / 12);
  const nm = total - ny * 12 + 1;
  const nd = Math.min(d, daysInMonth(ny, nm));
  return daysFromCivil(ny, nm, nd) * US_PER_DAY + timeOfDay;
}

/** TIMESTAMP_ADD(us, INTERVAL n unit): fixed units exactly; MONTH/QUARTER/YEAR by calendar, clamping the day. */
export function addInterval(us: number, n: number, unit: string): number {
  const u = normUnit(unit);
  const fixed = fixedPartUs(u);
  if (fixed !== undefined) return us + n * fixed;
  if (u === 'MONTH') return addMonths(us, n);
  if (u === 'QUARTER') return addMonths(us, 3 * n);
  if (u === 'YEAR') return addMonths(us, 12 * n);
  throw badUnit(unit, 'INTERVAL');
}

/** TIMESTAMP_DIFF(a, b, unit): whole units of a - b, truncated toward zero. */
export function diffTimestamp(a: number, b: number, unit: string): number {
  const u = normUnit(unit);
  const fixed = fixedPartUs(u);
  if (fixed !== undefined) return Math.trunc((a - b) / fixed);
  const per = u === 'MONTH' ? 1 : u === 'QUARTER' ? 3 : u === 'YEAR' ? 12 : 0;
  if (per === 0) throw badUnit(unit, 'TIMESTAMP_DIFF');
  if (a < b) return -diffTimestamp(b, a, unit);
  const ca = toCivil(a), cb = toCivil(b);
  let months = (ca.year - cb.year) * 12 + (ca.month - cb.month);
  if (months > 0 && addMonths(b, months) > a) months--;
  return Math.trunc(months / per);
}

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Offset in minutes of `UTC` or a fixed `±HH[:MM]` zone. */
function zoneOffsetMinutes(tz: string): number {
  const s = tz.trim();
  if (/^(utc|z|gmt|etc\/utc)$/i.test(s)) return 0;
  const m = /^(?:utc)?([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(s);
  if (!m) throw new RingqlError('query_error', `Time zone "${tz}" is not supported; use 'UTC' or a fixed offset such as '+02:00'`);
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

function fracDigits(micros: number, digits: number): string {
  const six = pad(micros, 6);
  return digits <= 6 ? six.slice(0, digits) : six + '0'.repeat(digits - 6);
}

/**
 * FORMAT_TIMESTAMP(format, us[, tz]) for the common elements: %Y %y %C %m %d %e %H %I %p %M %S %F %T
 * %D %R %E*S %E<n>S %Ez %z %Z %a %A %b %h %B %j %u %w %s %n %t %%. Unknown elements are kept as written.
 */
export function formatTimestampPattern(format: string, us: number, tz = 'UTC'): string {
  const offMin = zoneOffsetMinutes(tz);
  const c = toCivil(us + offMin * US_PER_MINUTE);
  const sign = offMin < 0 ? '-' : '+';
  const oh = pad(Math.floor(Math.abs(offMin) / 60), 2), om = pad(Math.abs(offMin) % 60, 2);
  const dow = floorMod(c.days + 4, 7);
  const doy = c.days - daysFromCivil(c.year, 1, 1) + 1;
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const ch = format[i]!;
    if (ch !== '%' || i + 1 >= format.length) { out += ch; continue; }
    const f = format[++i]!;
    switch (f) {
      case 'Y': out += pad(c.year, 4); break;
      case 'y': out += pad(c.year % 100, 2); break;
      case 'C': out += pad(Math.floor(c.year / 100), 2); break;
      case 'm': out += pad(c.month, 2); break;
      case 'd': out += pad(c.day, 2); break;
      case 'e': out += String(c.day).padStart(2, ' '); break;
      case 'H': out += pad(c.hour, 2); break;
      case 'k': out += String(c.hour).padStart(2, ' '); break;
      case 'I': out += pad(((c.hour + 11) % 12) + 1, 2); break;
      case 'l': out += String(((c.hour + 11) % 12) + 1).padStart(2, ' '); break;
      case 'p': out += c.hour < 12 ? 'AM' : 'PM'; break;
      case 'M': out += pad(c.minute, 2); break;
      case 'S': out += pad(c.second, 2); break;
      case 'F': out += `${pad(c.year, 4)}-${pad(c.month, 2)}-${pad(c.day, 2)}`; break;
      case 'T': out += `${pad(c.hour, 2)}:${pad(c.minute, 2)}:${pad(c.second, 2)}`; break;
      case 'D': out += `${pad(c.month, 2)}/${pad(c.day, 2)}/${pad(c.year % 100, 2)}`; break;
      case 'R': out += `${pad(c.hour, 2)}:${pad(c.minute, 2)}`; break;
      case 'z': out += sign + oh + om; break;
      case 'Z': out += offMin === 0 ? 'UTC' : `UTC${sign}${oh}:${om}`; break;
      case 'a': out += DAY_NAMES[dow]!.slice(0, 3); break;
      case 'A': out += DAY_NAMES[dow]!; break;
      case 'b': case 'h': out += MONTH_NAMES[c.month - 1]!.slice(0, 3); break;
      case 'B': out += MONTH_NAMES[c.month - 1]!; break;
      case 'j': out += pad(doy, 3); break;
      case 'u': out += String(dow === 0 ? 7 : dow); break;
      case 'w': out += String(dow); break;
      case 's': out += String(floorDiv(us === MAX_TIMESTAMP_US ? BELOW_MAX_US : us, US_PER_SECOND)); break;
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case '%': out += '%'; break;
      case 'E': {
        const rest = format.slice(i + 1);
        if (rest.startsWith('z')) { out += `${sign}${oh}:${om}`; i += 1; break; }
        if (rest.startsWith('*S')) {
          const fr = c.micros === 0 ? '' : '.' + pad(c.micros, 6).replace(/0+$/, '');
          out += pad(c.second, 2) + fr;
          i += 2;
          break;
        }
        const m = /^(\d)S/.exec(rest);
        if (m) {
          const n = Number(m[1]);
          out += pad(c.second, 2) + (n > 0 ? '.' + fracDigits(c.micros, n) : '');
          i += 2;
          break;
        }
        out += '%E';
        break;
      }
      default: out += '%' + f;
    }
  }
  return out;
}

/** Current time in integer µs since the epoch (sub-millisecond part from the monotonic clock). */
export function nowMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}
