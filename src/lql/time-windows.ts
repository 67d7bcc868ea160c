// The SQL of the `t:` windows measured from the query's clock: `last@N<period>` (since now minus N),
// and the shorthands `now`, `today`, `yesterday`, `this@<period>` as the reference bounds them.

import type { Expr } from '../sql/ast.ts';
import type { CompareOp, Period, Shorthand } from './terms.ts';

const call = (name: string, ...args: Expr[]): Expr => ({ kind: 'call', name, args });
const ident = (name: string): Expr => ({ kind: 'ident', parts: [name] });
const interval = (n: number, unit: string): Expr => ({ kind: 'interval', value: { kind: 'literal', type: 'int', value: n }, unit });
const now = (): Expr => call('CURRENT_TIMESTAMP');
/** TIMESTAMP_TRUNC(CURRENT_TIMESTAMP(), part); weeks start on Monday, as the reference's. */
const truncNow = (p: Period): Expr => call('TIMESTAMP_TRUNC', now(), p === 'WEEK' ? call('WEEK', ident('MONDAY')) : ident(p));

/** `timestamp >= CURRENT_TIMESTAMP() - N units` (a week is 7 days: TIMESTAMP_SUB takes no WEEK). */
export function lastWindow(ts: Expr, amount: number, unit: Period): Expr {
  const since = call('TIMESTAMP_SUB', now(), unit === 'WEEK' ? interval(amount * 7, 'DAY') : interval(amount, unit));
  return { kind: 'binary', op: '>=', left: ts, right: since };
}

/**
 * `now` compares with the current second; `today` and `yesterday` are that whole day (to its last
 * second, inclusive); `this@<period>` runs from the start of the period to the current second.
 */
export function shorthandWindow(ts: Expr, op: CompareOp, s: Shorthand): Expr {
  const second = truncNow('SECOND');
  const between = (low: Expr, high: Expr): Expr => ({ kind: 'between', operand: ts, not: false, low, high });
  switch (s.name) {
    case 'now':
      return { kind: 'binary', op, left: ts, right: second };
    case 'today':
      return between(truncNow('DAY'), call('TIMESTAMP_ADD', truncNow('DAY'), interval(86399, 'SECOND')));
    case 'yesterday':
      return between(call('TIMESTAMP_SUB', truncNow('DAY'), interval(1, 'DAY')), call('TIMESTAMP_SUB', truncNow('DAY'), interval(1, 'SECOND')));
    case 'this':
      return between(truncNow(s.period), second);
  }
}
