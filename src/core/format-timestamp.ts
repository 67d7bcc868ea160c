// FORMAT_TIMESTAMP: BigQuery format elements over a µs timestamp in UTC or a fixed-offset zone.

import { daysFromCivil, floorDiv, floorMod, toCivil } from './calendar.ts';
import { pad } from './time.ts';
import { BELOW_MAX_US, MAX_TIMESTAMP_US, US_PER_MINUTE, US_PER_SECOND } from './time-units.ts';
import { RingqlError } from './errors.ts';

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
