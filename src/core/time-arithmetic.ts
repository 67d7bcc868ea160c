// TIMESTAMP_TRUNC, TIMESTAMP_ADD and TIMESTAMP_DIFF on µs timestamps in UTC: fixed units exactly,
// calendar units (WEEK, MONTH, QUARTER, YEAR, ISO) by the calendar.

import { civilFromDays, daysFromCivil, daysInMonth, floorDiv, toCivil, weekStartDay } from './calendar.ts';
import { BELOW_MAX_US, MAX_TIMESTAMP_US, US_PER_DAY, US_PER_HOUR, US_PER_MINUTE, US_PER_MS, US_PER_SECOND } from './time-units.ts';
import { fixedPartUs } from './date-parts.ts';
import { RingqlError } from './errors.ts';

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
