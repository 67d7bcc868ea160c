// Proleptic Gregorian calendar arithmetic on epoch days (integer math, Date never needed) and the
// broken-down UTC fields of a µs timestamp.

import { MAX_TIMESTAMP_US, US_PER_DAY, US_PER_SECOND } from './time-units.ts';

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
export function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}
export function floorMod(a: number, b: number): number {
  const r = a % b;
  return r < 0 ? r + b : r;
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

/** Start of the week (weekday 0 = Sunday) holding the given epoch day. 1970-01-01 was a Thursday (4). */
export function weekStartDay(days: number, startDow: number): number {
  const dow = floorMod(days + 4, 7);
  return days - floorMod(dow - startDow, 7);
}
