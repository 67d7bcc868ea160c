// PARSE_TIMESTAMP, PARSE_DATE and FORMAT_DATE with BigQuery format elements (SPEC §7 "Also:"). DATE
// values are 'YYYY-MM-DD' strings, TIMESTAMPs integer microseconds, as elsewhere in src/fn.

import { registerScalar, simple } from './registry.ts';
import { RingqlError } from '../core/errors.ts';
import { daysFromCivil, daysInMonth } from '../core/calendar.ts';
import { formatDatetime } from '../core/time.ts';
import { formatTimestampPattern } from '../core/format-timestamp.ts';
import { MAX_TIMESTAMP_US, MIN_TIMESTAMP_US, US_PER_DAY, US_PER_MINUTE } from '../core/time-units.ts';
import type { SqlType } from '../core/types.ts';
import { parseTimePattern, zoneTextMinutes } from './time-parse.ts';

function signature(name: string, allowed: SqlType[][]): (args: SqlType[]) => SqlType[] {
  return (args) => {
    args.forEach((t, i) => {
      if (t !== 'NULL' && t !== 'ANY' && !allowed[i]!.includes(t)) {
        throw new RingqlError('query_error', `No matching signature for function ${name} for argument types: ${args.join(', ')}`);
      }
    });
    return args;
  };
}

const parseTsArgs = signature('PARSE_TIMESTAMP', [['STRING'], ['STRING'], ['STRING']]);
registerScalar(simple('PARSE_TIMESTAMP', 2, 3, (a) => (parseTsArgs(a), 'TIMESTAMP'), (f, text, zone) => {
  if (typeof f !== 'string' || typeof text !== 'string') return null;
  const p = parseTimePattern(f, text);
  if (p.epochUs !== null) return p.epochUs;
  const off = p.offsetMin ?? (typeof zone === 'string' ? zoneTextMinutes(zone) : 0); // a zone in the text wins
  const us = p.localUs - off * US_PER_MINUTE;
  if (us < MIN_TIMESTAMP_US || us > MAX_TIMESTAMP_US) throw new RingqlError('query_error', 'PARSE_TIMESTAMP: the timestamp is out of range');
  return us;
}));

const parseDateArgs = signature('PARSE_DATE', [['STRING'], ['STRING']]);
registerScalar(simple('PARSE_DATE', 2, 2, (a) => (parseDateArgs(a), 'DATE'), (f, text) => {
  if (typeof f !== 'string' || typeof text !== 'string') return null;
  const p = parseTimePattern(f, text);
  return formatDatetime(p.localUs).slice(0, 10);
}));

/** A DATE value ('YYYY-MM-DD') as microseconds at its midnight, or null when the text is no date. */
function dateUs(v: string): number | null {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(v.trim());
  if (!m) return null;
  const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return daysFromCivil(y, mo, d) * US_PER_DAY;
}

/** %x, %X and %c, which the shared formatter keeps as written, spelled out (%% stays a literal percent). */
function expandComposites(f: string): string {
  return f.replace(/%(.)/gs, (m, k: string) => (k === 'x' ? '%m/%d/%y' : k === 'X' ? '%H:%M:%S' : k === 'c' ? '%a %b %e %H:%M:%S %Y' : m));
}

const formatDateArgs = signature('FORMAT_DATE', [['STRING'], ['DATE', 'STRING']]);
registerScalar(simple('FORMAT_DATE', 2, 2, (a) => (formatDateArgs(a), 'STRING'), (f, d) => {
  if (typeof f !== 'string' || typeof d !== 'string') return null;
  const us = dateUs(d);
  if (us === null) throw new RingqlError('query_error', 'FORMAT_DATE: the value is not a DATE (YYYY-MM-DD); it is not shown, as errors never quote row data');
  return formatTimestampPattern(expandComposites(f), us);
}));
