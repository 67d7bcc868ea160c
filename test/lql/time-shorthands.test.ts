// `t:` values as the reference reads them: shorthands (now, today, yesterday, this@<period>,
// last@[N]<period>), Unix timestamps of 10/13/16 digits, and `{a..b}` ranges inside a date.

import { describe, expect, it } from 'vitest';
import { errorOf, lql } from './helpers.ts';
import { lqlRows, lqlSql } from './store-rows.ts';

// The store's clock is 2025-01-15T12:00:00Z, a Wednesday.
const at = (iso: string): number => Date.parse(iso) * 1000;
const EVENTS = [
  ['e1', '2025-01-15T11:58:00Z'], // two minutes ago
  ['e2', '2025-01-15T00:30:00Z'], // today
  ['e3', '2025-01-14T23:59:59Z'], // yesterday's last second
  ['e4', '2025-01-14T00:00:00Z'], // yesterday's first second
  ['e5', '2025-01-13T05:00:00Z'], // Monday: this week
  ['e6', '2025-01-12T23:00:00Z'], // Sunday: last week, this month
].map(([id, ts]) => ({ id: id!, timestamp: at(ts!), event_message: 'x', metadata: {} }));
const ids = (text: string): string[] => lqlRows(text, EVENTS).map((r) => r.id as string);

describe('t: shorthands', () => {
  it('today and yesterday are whole UTC days', () => {
    expect(ids('t:today')).toEqual(['e1', 'e2']);
    expect(ids('t:yesterday')).toEqual(['e3', 'e4']);
    expect(lqlSql('t:today')).toContain('t.timestamp BETWEEN TIMESTAMP_TRUNC(CURRENT_TIMESTAMP(), DAY) AND TIMESTAMP_ADD(TIMESTAMP_TRUNC(CURRENT_TIMESTAMP(), DAY), INTERVAL 86399 SECOND)');
  });

  it('this@<period> runs from the start of the period (weeks start on Monday)', () => {
    expect(ids('t:this@week')).toEqual(['e1', 'e2', 'e3', 'e4', 'e5']);
    expect(ids('t:this@month')).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
    expect(ids('t:this@years')).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
    expect(ids('t:this@d')).toEqual(['e1', 'e2']);
  });

  it('last@ takes abbreviations, an optional amount, and weeks', () => {
    expect(ids('t:last@5m')).toEqual(['e1']);
    expect(lql('t:last@5m')).toEqual(lql('t:last@5minutes'));
    expect(lql('t:last@hour')).toEqual(lql('t:last@1hours'));
    expect(ids('t:last@2d')).toEqual(['e1', 'e2', 'e3', 'e4']);
    expect(ids('t:last@w')).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
    expect(lqlSql('t:last@2w')).toContain('t.timestamp >= TIMESTAMP_SUB(CURRENT_TIMESTAMP(), INTERVAL 14 DAY)');
    expect(ids('timestamp:last@30s')).toEqual([]);
  });

  it('now is the current second', () => {
    expect(ids('t:<now')).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
    expect(ids('t:now')).toEqual([]);
  });

  it('a shorthand cannot bound a range', () => {
    expect(errorOf(() => lql('t:today..2025-01-16')).code).toBe('syntax_error');
  });
});

describe('t: Unix timestamps and brace ranges', () => {
  it('10, 13 and 16 digits are seconds, milliseconds and microseconds', () => {
    expect(ids('t:1736942280')).toEqual(['e1']);
    expect(ids('t:1736942280000')).toEqual(['e1']);
    expect(ids('t:1736942280000000')).toEqual(['e1']);
    expect(ids('t:>=1736899200')).toEqual(['e1', 'e2']); // 2025-01-15T00:00:00Z
    expect(errorOf(() => lql('t:12345')).code).toBe('syntax_error');
  });

  it('{a..b} inside a date is an inclusive range', () => {
    expect(ids('t:2025-01-{13..14}')).toEqual(['e4', 'e5']);
    expect(ids('t:2025-01-14T{00..23}:00:00')).toEqual(['e4']);
    expect(lqlSql('t:2020-{05..07}-01')).toContain("t.timestamp BETWEEN TIMESTAMP '2020-05-01' AND TIMESTAMP '2020-07-01'");
    expect(lql('t:2025-01-{14..14}')).toEqual(lql('t:2025-01-14'));
  });
});

describe('t: ranges', () => {
  it('mixing an absolute end and a datetime without offset is a syntax error, as in the reference', () => {
    expect(errorOf(() => lql('t:2024-03-17T13:47:02+00:00..2024-03-17T13:57:02.000')).message).toContain('cannot mix a timestamp with an offset');
    expect(errorOf(() => lql('t:1710683222..2024-03-17T13:57:02')).code).toBe('syntax_error');
    expect(lqlSql('t:2024-03-17T13:47:02Z..2024-03-17T13:57:02Z')).toContain("BETWEEN TIMESTAMP '2024-03-17T13:47:02Z' AND TIMESTAMP '2024-03-17T13:57:02Z'");
  });
});
