// Reads the value side of a `t:` term as the reference does: ISO 8601 dates and datetimes, `{a..b}`
// ranges inside one (`2020-{05..07}-01`), Unix timestamps of 10/13/16 digits, and the shorthands.

import { syntaxError } from './syntax-error.ts';
import type { CompareOp, FilterTerm, LqlValue, Period } from './terms.ts';

const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

/** A time value token as read-terms hands it over: its token type, text (unquoted) and column. */
export interface TimeToken {
  kind: string;
  text: string;
  column: number;
}

/**
 * The filter a `t:` term means. A shorthand other than `now` and a brace range are inclusive
 * ranges whatever the operator (as the reference's parser turns them into a range rule).
 */
export function readTimeTerm(low: TimeToken, high: TimeToken | undefined, op: CompareOp, negated: boolean, column: number): FilterTerm {
  if (low.kind === 'Relative' || high?.kind === 'Relative') {
    const t = low.kind === 'Relative' ? low : high!;
    if (high) throw syntaxError(t.column, `a time shorthand (${t.text}) cannot bound a range`);
    return shorthandTerm(low, op, negated, column);
  }
  const lo = timeValue(low);
  if (high) {
    const hi = timeValue(high);
    if (lo.high || hi.high) throw syntaxError(high.column, 'a {a..b} date cannot bound a range');
    const ends = [origin(low), origin(high)];
    if (ends.includes('absolute') && ends.includes('local')) {
      throw syntaxError(high.column, 'a range cannot mix a timestamp with an offset and a datetime without one (add Z or an offset to both)');
    }
    return { kind: 'time', op, value: lo.low, high: hi.low, negated, column };
  }
  if (lo.high) return { kind: 'time', op: '=', value: lo.low, high: lo.high, negated, column };
  return { kind: 'time', op, value: lo.low, negated, column };
}

/**
 * A range end as the reference tells them apart: an absolute instant (`Z`/offset, or Unix), a local
 * datetime (no offset), or a date. The reference rejects a range mixing absolute and local ends;
 * a date may stand with either here (the reference also rejects that: ringql keeps accepting it).
 */
function origin(t: TimeToken): 'absolute' | 'local' | 'date' {
  if (t.kind === 'NumberLit' || /(?:Z|[+-]\d{2}:?\d{2})$/.test(t.text)) return 'absolute';
  return /[T ]/.test(t.text) ? 'local' : 'date';
}

const PERIODS: Record<string, Period> = {
  s: 'SECOND', second: 'SECOND', m: 'MINUTE', minute: 'MINUTE', h: 'HOUR', hour: 'HOUR', d: 'DAY', day: 'DAY',
  w: 'WEEK', week: 'WEEK', mm: 'MONTH', month: 'MONTH', y: 'YEAR', year: 'YEAR',
};

function period(text: string): Period {
  return PERIODS[text.replace(/s$/, '')] ?? PERIODS[text]!;
}

function shorthandTerm(t: TimeToken, op: CompareOp, negated: boolean, column: number): FilterTerm {
  const last = /^last@(\d*)([a-z]+)$/.exec(t.text);
  if (last) {
    const amount = last[1] === '' ? 1 : Number(last[1]);
    if (amount < 1) throw syntaxError(t.column, `last@${last[1]}${last[2]} needs a positive amount`);
    return { kind: 'last', amount, unit: period(last[2]!), negated, column };
  }
  const thisP = /^this@([a-z]+)$/.exec(t.text);
  const shorthand = thisP ? { name: 'this' as const, period: period(thisP[1]!) } : { name: t.text as 'now' | 'today' | 'yesterday' };
  return { kind: 'shorthand', op, shorthand, negated, column };
}

/** One ISO or Unix value; a brace range gives both ends. */
function timeValue(t: TimeToken): { low: LqlValue; high?: LqlValue } {
  if (t.kind === 'NumberLit') return { low: stamp(unixToIso(t), t.column) };
  if (t.kind === 'BraceTimestamp') {
    const lo = t.text.replace(/\{(\d+)\.\.\d+\}/g, '$1');
    const hi = t.text.replace(/\{\d+\.\.(\d+)\}/g, '$1');
    for (const x of [lo, hi]) if (!ISO.test(x)) throw syntaxError(t.column, `"${t.text}" is not a valid date range`);
    return lo === hi ? { low: stamp(lo, t.column) } : { low: stamp(lo, t.column), high: stamp(hi, t.column) };
  }
  if (!ISO.test(t.text)) throw syntaxError(t.column, `"${t.text}" is not an ISO 8601 timestamp such as 2024-01-15T05:00:00Z`);
  return { low: stamp(t.text, t.column) };
}

function stamp(text: string, column: number): LqlValue {
  return { kind: 'timestamp', value: text, raw: text, column };
}

/** 10 digits are seconds, 13 milliseconds, 16 microseconds (kept to the millisecond, as the reference). */
function unixToIso(t: TimeToken): string {
  const n = t.text.length;
  if (!/^\d+$/.test(t.text) || (n !== 10 && n !== 13 && n !== 16)) {
    throw syntaxError(t.column, `"${t.text}" is not an ISO 8601 timestamp or a Unix timestamp (10, 13 or 16 digits)`);
  }
  const ms = n === 10 ? Number(t.text) * 1000 : Number(t.text.slice(0, 13));
  return new Date(ms).toISOString();
}
