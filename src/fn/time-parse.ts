// The parser behind PARSE_TIMESTAMP / PARSE_DATE: BigQuery format elements read from text, unset fields
// defaulting to 1970-01-01 00:00:00. A text that does not match is query_error (row data is never quoted).

import { RingqlError } from '../core/errors.ts';
import { daysFromCivil, daysInMonth, isLeapYear } from '../core/calendar.ts';
import { US_PER_DAY, US_PER_HOUR, US_PER_MINUTE, US_PER_SECOND } from '../core/time-units.ts';

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
/** Composite elements, expanded before parsing. */
const COMPOSITE: Record<string, string> = { F: '%Y-%m-%d', T: '%H:%M:%S', D: '%m/%d/%y', x: '%m/%d/%y', R: '%H:%M', X: '%H:%M:%S', c: '%a %b %e %H:%M:%S %Y' };

/** What a text said: local civil microseconds since the epoch, and the UTC offset it named (minutes), if any. */
export interface ParsedTime {
  localUs: number;
  offsetMin: number | null;
  /** Set by %s: an absolute instant that overrides every other field. */
  epochUs: number | null;
}

const noMatch = (format: string): RingqlError =>
  new RingqlError('query_error', `Failed to parse input string with format "${format}" (the input is not shown: errors never quote row data); use SAFE.PARSE_... to get NULL instead`);

/** A zone name or offset: UTC, Z, GMT, +HH, +HHMM, +HH:MM, UTC+HH:MM. Other names are not supported. */
export function zoneTextMinutes(s: string): number {
  const t = s.trim();
  if (/^(utc|z|gmt|etc\/utc|etc\/gmt)$/i.test(t)) return 0;
  const m = /^(?:utc|gmt)?([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(t);
  if (!m) throw new RingqlError('query_error', `Time zone "${t}" is not supported; use 'UTC' or a fixed offset such as '+02:00'`);
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

export function parseTimePattern(format: string, text: string): ParsedTime {
  let fmt = format;
  for (let guard = 0; guard < 4 && /%[FTDxRXc]/.test(fmt); guard++) fmt = fmt.replace(/%([FTDxRXc])/g, (_m, k: string) => COMPOSITE[k]!);
  let year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, micros = 0;
  let yy: number | null = null, century: number | null = null, hour12: number | null = null, pm: boolean | null = null;
  let doy: number | null = null, offsetMin: number | null = null, epochUs: number | null = null;
  let pos = 0;
  const fail = (): never => { throw noMatch(format); };
  const skipSpace = (): void => { while (pos < text.length && /\s/.test(text[pos]!)) pos++; };
  const digits = (max: number, signed = false): number => {
    const m = (signed ? /^[+-]?\d+/ : new RegExp(`^\\d{1,${max}}`)).exec(text.slice(pos));
    if (!m) return fail();
    pos += m[0].length;
    return Number(m[0]);
  };
  const name = (list: string[]): number => {
    const rest = text.slice(pos).toLowerCase();
    for (let i = 0; i < list.length; i++) {
      const full = list[i]!;
      if (rest.startsWith(full)) { pos += full.length; return i; }
    }
    for (let i = 0; i < list.length; i++) {
      if (rest.startsWith(list[i]!.slice(0, 3))) { pos += 3; return i; }
    }
    return fail();
  };
  const offset = (): number => {
    const m = /^(?:[Zz](?![A-Za-z])|[+-]\d{2}(?::?\d{2})?)/.exec(text.slice(pos));
    if (!m) return fail();
    pos += m[0].length;
    return zoneTextMinutes(m[0]);
  };

  skipSpace(); // leading white space in the text is always allowed
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i]!;
    if (/\s/.test(ch)) {
      while (i + 1 < fmt.length && /\s/.test(fmt[i + 1]!)) i++;
      skipSpace(); // white space in the format matches zero or more in the text
      continue;
    }
    if (ch !== '%' || i + 1 >= fmt.length) {
      if (text[pos] !== ch) fail();
      pos++;
      continue;
    }
    const f = fmt[++i]!;
    switch (f) {
      case 'Y': year = digits(4); break;
      case 'y': yy = digits(2); break;
      case 'C': century = digits(2); break;
      case 'm': month = digits(2); break;
      case 'd': day = digits(2); break;
      case 'e': skipSpace(); day = digits(2); break;
      case 'H': hour = digits(2); break;
      case 'k': skipSpace(); hour = digits(2); break;
      case 'I': hour12 = digits(2); break;
      case 'l': skipSpace(); hour12 = digits(2); break;
      case 'p': case 'P': {
        const m = /^(am|pm)/i.exec(text.slice(pos));
        if (!m) fail();
        pm = m![0].toLowerCase() === 'pm';
        pos += 2;
        break;
      }
      case 'M': minute = digits(2); break;
      case 'S': second = digits(2); break;
      case 'j': doy = digits(3); break;
      case 'a': case 'A': name(DAYS); break; // the weekday is read, not checked against the date
      case 'b': case 'B': case 'h': month = name(MONTHS) + 1; break;
      case 'u': case 'w': digits(1); break;
      case 's': epochUs = digits(0, true) * US_PER_SECOND; break;
      case 'z': offsetMin = offset(); break;
      case 'Z': {
        const m = /^(?:utc|gmt|z)?(?:[+-]\d{1,2}(?::?\d{2})?)?/i.exec(text.slice(pos));
        if (!m || m[0] === '') fail();
        offsetMin = zoneTextMinutes(m![0]);
        pos += m![0].length;
        break;
      }
      case 'n': case 't': skipSpace(); break;
      case '%': if (text[pos] !== '%') fail(); pos++; break;
      case 'E': {
        const rest = fmt.slice(i + 1);
        if (rest.startsWith('z')) { offsetMin = offset(); i += 1; break; }
        const m = /^(\*|\d)S/.exec(rest);
        if (!m) throw new RingqlError('query_error', `Unsupported format element %E${rest.slice(0, 2)} in "${format}"`);
        second = digits(2);
        const maxFrac = m[1] === '*' ? 12 : Number(m[1]);
        const fr = maxFrac > 0 ? new RegExp(`^\\.(\\d{1,${maxFrac}})`).exec(text.slice(pos)) : null;
        if (fr) { micros = Number(fr[1]!.slice(0, 6).padEnd(6, '0')); pos += fr[0].length; } // beyond µs is truncated
        i += 2;
        break;
      }
      default: throw new RingqlError('query_error', `Unsupported format element %${f} in "${format}"`);
    }
  }
  skipSpace(); // trailing white space in the text is always allowed
  if (pos !== text.length) fail();
  if (epochUs !== null) return { localUs: epochUs, offsetMin: 0, epochUs };

  if (yy !== null) year = century !== null ? century * 100 + yy : yy < 69 ? 2000 + yy : 1900 + yy;
  else if (century !== null) year = century * 100;
  if (hour12 !== null) {
    if (hour12 < 1 || hour12 > 12) fail();
    hour = (hour12 % 12) + (pm === true ? 12 : 0);
  }
  let days: number;
  if (year < 1 || year > 9999 || hour > 23 || minute > 59 || second > 59) return fail();
  if (doy !== null) {
    if (doy < 1 || doy > (isLeapYear(year) ? 366 : 365)) fail();
    days = daysFromCivil(year, 1, 1) + doy - 1;
  } else {
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) fail();
    days = daysFromCivil(year, month, day);
  }
  return { localUs: days * US_PER_DAY + hour * US_PER_HOUR + minute * US_PER_MINUTE + second * US_PER_SECOND + micros, offsetMin, epochUs: null };
}
