// Unit tests of src/core/time.ts: parsing (strings, zones, digit-count scaling, invalid input),
// formatting, truncation, interval arithmetic, differences and FORMAT_TIMESTAMP.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addInterval, diffTimestamp, truncTimestamp } from '../../src/core/time-arithmetic.ts';
import { formatDatetime, formatTimestamp, nowMicros, parseTimestamp } from '../../src/core/time.ts';
import { formatTimestampPattern } from '../../src/core/format-timestamp.ts';

const T = (s: string): number => {
  const v = parseTimestamp(s);
  if (v === null) throw new Error(`bad test timestamp ${s}`);
  return v;
};

describe('parseTimestamp strings', () => {
  it.each([
    ['2024-01-02T03:04:05Z', Date.UTC(2024, 0, 2, 3, 4, 5) * 1000],
    ['2024-01-02 03:04:05', Date.UTC(2024, 0, 2, 3, 4, 5) * 1000],
    ['2024-01-02', Date.UTC(2024, 0, 2) * 1000],
    ['2024-01-02T03:04', Date.UTC(2024, 0, 2, 3, 4) * 1000],
    ['2024-01-02T03:04:05.1Z', Date.UTC(2024, 0, 2, 3, 4, 5) * 1000 + 100_000],
    ['2024-01-02T03:04:05.123456Z', Date.UTC(2024, 0, 2, 3, 4, 5) * 1000 + 123_456],
    ['2024-01-02T03:04:05.123456789Z', Date.UTC(2024, 0, 2, 3, 4, 5) * 1000 + 123_456],
    ['2024-01-02T03:04:05.999999999Z', Date.UTC(2024, 0, 2, 3, 4, 5) * 1000 + 999_999],
    ['2024-01-02T03:04:05+02:00', Date.UTC(2024, 0, 2, 1, 4, 5) * 1000],
    ['2024-01-02T03:04:05-0530', Date.UTC(2024, 0, 2, 8, 34, 5) * 1000],
    ['2024-01-02T03:04:05+01', Date.UTC(2024, 0, 2, 2, 4, 5) * 1000],
    ['2023-03-23 14:40:18.149 UTC', Date.UTC(2023, 2, 23, 14, 40, 18, 149) * 1000],
    ['2023-03-23T14:34:17.643993277+00:00', Date.UTC(2023, 2, 23, 14, 34, 17) * 1000 + 643_993],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29) * 1000],
    ['2000-02-29', Date.UTC(2000, 1, 29) * 1000],
    ['1969-12-31T23:59:59.5Z', -500_000],
    ['0001-01-01T00:00:00Z', -62_135_596_800_000_000],
    ['  2024-01-02T03:04:05Z  ', Date.UTC(2024, 0, 2, 3, 4, 5) * 1000],
    ['2024-01-02t03:04:05z', Date.UTC(2024, 0, 2, 3, 4, 5) * 1000],
  ])('%s', (s, us) => {
    expect(parseTimestamp(s)).toBe(us);
  });

  it.each([
    'abc', '', '2024', '2024-13-01', '2024-00-10', '2023-02-29', '1900-02-29', '2024-04-31', '2024-01-32', '2024-01-00',
    '2024-01-02T24:00:00Z', '2024-01-02T23:60:00Z', '2024-01-02T23:59:60Z', '2024-01-02T03:04:05+25:00', '2024-01-02T03:04:05+02:61',
    '0000-01-01', '2024-01-02T03:04:05.Z', '2024-01-02T03:04:05.1234567890Z', '2024-01-02T03:04:05 PST', '1700000000',
  ])('rejects %s', (s) => {
    expect(parseTimestamp(s)).toBeNull();
  });
});

describe('parseTimestamp numbers (digit-count scaling)', () => {
  it.each([
    [0, 0],
    [5, 5_000_000],
    [-5, -5_000_000],
    [1_700_000_000, 1_700_000_000_000_000],
    [9_999_999_999, 9_999_999_999_000_000],
    [10_000_000_000, 10_000_000_000_000],
    [1_700_000_000_123, 1_700_000_000_123_000],
    [1_700_000_000_123_456, 1_700_000_000_123_456],
    [99_999_999_999_999, 99_999_999_999_999],
    [1_700_000_000_123_456_789, Math.floor(1_700_000_000_123_456_789 / 1000)],
  ])('%d', (n, us) => {
    expect(parseTimestamp(n)).toBe(us);
  });

  it.each([1.5, NaN, Infinity, -Infinity, 1e19, 1e25])('rejects %d', (n) => {
    expect(parseTimestamp(n)).toBeNull();
  });

  it('rejects other types', () => {
    for (const v of [null, undefined, true, {}, [], [1]]) expect(parseTimestamp(v)).toBeNull();
  });

  it('agrees with Date for random ms timestamps', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
      const iso = new Date(ms).toISOString();
      expect(parseTimestamp(iso)).toBe(ms * 1000);
      expect(formatTimestamp(ms * 1000)).toBe(ms % 1000 === 0 ? iso.replace('.000Z', 'Z') : iso.replace('Z', '000Z'));
    }));
  });

  it('round-trips µs through formatTimestamp', () => {
    fc.assert(fc.property(fc.integer({ min: -62_135_596_800_000_000 / 1000, max: 2 ** 52 }), (us) => {
      expect(parseTimestamp(formatTimestamp(us))).toBe(us);
    }));
  });
});

describe('formatting', () => {
  it('formatTimestamp', () => {
    expect(formatTimestamp(T('2024-01-02T03:04:05.123456Z'))).toBe('2024-01-02T03:04:05.123456Z');
    expect(formatTimestamp(T('2024-01-02T03:04:05Z'))).toBe('2024-01-02T03:04:05Z');
    expect(formatTimestamp(T('2024-01-02T03:04:05.1Z'))).toBe('2024-01-02T03:04:05.100000Z');
    expect(formatTimestamp(-1)).toBe('1969-12-31T23:59:59.999999Z');
    expect(formatTimestamp(T('0001-01-01'))).toBe('0001-01-01T00:00:00Z');
  });
  it('formatDatetime', () => {
    expect(formatDatetime(T('2024-01-02T03:04:05Z'))).toBe('2024-01-02T03:04:05');
    expect(formatDatetime(T('2024-01-02T03:04:05.000001Z'))).toBe('2024-01-02T03:04:05.000001');
  });
  it('nowMicros is near Date.now', () => {
    expect(Math.abs(nowMicros() - Date.now() * 1000)).toBeLessThan(5_000_000);
    expect(Number.isInteger(nowMicros())).toBe(true);
  });
});

describe('truncTimestamp', () => {
  const t = T('2024-05-15T13:45:30.123456Z'); // a Wednesday
  it.each([
    ['MICROSECOND', '2024-05-15T13:45:30.123456Z'],
    ['MILLISECOND', '2024-05-15T13:45:30.123000Z'],
    ['SECOND', '2024-05-15T13:45:30Z'],
    ['MINUTE', '2024-05-15T13:45:00Z'],
    ['HOUR', '2024-05-15T13:00:00Z'],
    ['DAY', '2024-05-15T00:00:00Z'],
    ['WEEK', '2024-05-12T00:00:00Z'],
    ['week', '2024-05-12T00:00:00Z'],
    ['WEEK(MONDAY)', '2024-05-13T00:00:00Z'],
    ['WEEK_MONDAY', '2024-05-13T00:00:00Z'],
    ['WEEK(SATURDAY)', '2024-05-11T00:00:00Z'],
    ['WEEK(WEDNESDAY)', '2024-05-15T00:00:00Z'],
    ['ISOWEEK', '2024-05-13T00:00:00Z'],
    ['MONTH', '2024-05-01T00:00:00Z'],
    ['QUARTER', '2024-04-01T00:00:00Z'],
    ['YEAR', '2024-01-01T00:00:00Z'],
    ['ISOYEAR', '2024-01-01T00:00:00Z'],
  ])('%s', (unit, expected) => {
    expect(formatTimestamp(truncTimestamp(t, unit))).toBe(expected);
  });
  it('handles times before the epoch', () => {
    expect(formatTimestamp(truncTimestamp(T('1969-12-31T23:59:59.5Z'), 'SECOND'))).toBe('1969-12-31T23:59:59Z');
    expect(formatTimestamp(truncTimestamp(T('1969-12-31T23:59:59Z'), 'DAY'))).toBe('1969-12-31T00:00:00Z');
    expect(formatTimestamp(truncTimestamp(T('1969-12-31T12:00:00Z'), 'WEEK'))).toBe('1969-12-28T00:00:00Z');
  });
  it('ISOYEAR crossing the calendar year', () => {
    expect(formatTimestamp(truncTimestamp(T('2021-01-02T00:00:00Z'), 'ISOYEAR'))).toBe('2019-12-30T00:00:00Z');
    expect(formatTimestamp(truncTimestamp(T('2024-12-30T00:00:00Z'), 'ISOYEAR'))).toBe('2024-12-30T00:00:00Z');
  });
  it('rejects unknown units', () => {
    expect(() => truncTimestamp(t, 'FORTNIGHT')).toThrow(/FORTNIGHT/);
    expect(() => truncTimestamp(t, 'WEEK(FUNDAY)')).toThrow();
  });
  it('is idempotent and never later than its input', () => {
    const units = ['MILLISECOND', 'SECOND', 'MINUTE', 'HOUR', 'DAY', 'WEEK', 'ISOWEEK', 'MONTH', 'QUARTER', 'YEAR', 'ISOYEAR'];
    fc.assert(fc.property(fc.integer({ min: -2e15, max: 4e15 }), fc.constantFrom(...units), (us, u) => {
      const x = truncTimestamp(us, u);
      expect(x).toBeLessThanOrEqual(us);
      expect(truncTimestamp(x, u)).toBe(x);
    }));
  });
});

describe('addInterval and diffTimestamp', () => {
  const t = T('2024-01-31T10:00:00Z');
  it('fixed units', () => {
    expect(addInterval(t, 1, 'MICROSECOND')).toBe(t + 1);
    expect(addInterval(t, -3, 'MILLISECOND')).toBe(t - 3000);
    expect(formatTimestamp(addInterval(t, 90, 'MINUTE'))).toBe('2024-01-31T11:30:00Z');
    expect(formatTimestamp(addInterval(t, 1, 'DAY'))).toBe('2024-02-01T10:00:00Z');
    expect(formatTimestamp(addInterval(t, 2, 'WEEK'))).toBe('2024-02-14T10:00:00Z');
  });
  it('calendar units clamp the day', () => {
    expect(formatTimestamp(addInterval(t, 1, 'MONTH'))).toBe('2024-02-29T10:00:00Z');
    expect(formatTimestamp(addInterval(T('2023-01-31T10:00:00Z'), 1, 'MONTH'))).toBe('2023-02-28T10:00:00Z');
    expect(formatTimestamp(addInterval(t, -2, 'MONTH'))).toBe('2023-11-30T10:00:00Z');
    expect(formatTimestamp(addInterval(t, 1, 'QUARTER'))).toBe('2024-04-30T10:00:00Z');
    expect(formatTimestamp(addInterval(T('2024-02-29T00:00:00Z'), 1, 'YEAR'))).toBe('2025-02-28T00:00:00Z');
    expect(formatTimestamp(addInterval(T('2024-02-29T00:00:00Z'), 4, 'YEAR'))).toBe('2028-02-29T00:00:00Z');
  });
  it('rejects unknown units', () => {
    expect(() => addInterval(t, 1, 'DECADE')).toThrow(/DECADE/);
    expect(() => diffTimestamp(t, t, 'DECADE')).toThrow(/DECADE/);
  });
  it('diff truncates toward zero', () => {
    const a = T('2024-01-01T00:00:00Z');
    expect(diffTimestamp(a + 90 * 60_000_000, a, 'HOUR')).toBe(1);
    expect(diffTimestamp(a, a + 90 * 60_000_000, 'HOUR')).toBe(-1);
    expect(diffTimestamp(a + 1, a, 'MICROSECOND')).toBe(1);
    expect(diffTimestamp(T('2024-01-08T00:00:00Z'), a, 'WEEK')).toBe(1);
    expect(diffTimestamp(T('2024-01-07T23:59:59Z'), a, 'WEEK')).toBe(0);
    expect(diffTimestamp(T('2024-03-01T00:00:00Z'), T('2024-01-31T00:00:00Z'), 'MONTH')).toBe(1);
    expect(diffTimestamp(T('2024-02-29T00:00:00Z'), T('2024-01-31T00:00:00Z'), 'MONTH')).toBe(1); // clamped, as addInterval
    expect(diffTimestamp(T('2024-02-28T00:00:00Z'), T('2024-01-31T00:00:00Z'), 'MONTH')).toBe(0);
    expect(diffTimestamp(T('2025-01-01T00:00:00Z'), T('2024-01-01T00:00:01Z'), 'YEAR')).toBe(0);
    expect(diffTimestamp(T('2024-01-01T00:00:00Z'), T('2025-01-01T00:00:00Z'), 'YEAR')).toBe(-1);
    expect(diffTimestamp(T('2024-07-01T00:00:00Z'), a, 'QUARTER')).toBe(2);
  });
  // Stays within ±2^53 µs (years 1685..2255), where µs are exact integers.
  it('diff of a + n units is n', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2e15 }), fc.integer({ min: -100, max: 100 }), fc.constantFrom('SECOND', 'MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'), (us, n, u) => {
      expect(diffTimestamp(addInterval(us, n, u), us, u)).toBe(n);
    }));
  });
});

describe('formatTimestampPattern', () => {
  const t = T('2024-03-05T07:08:09.120000Z'); // Tuesday
  it.each([
    ['%Y-%m-%d %H:%M:%S', '2024-03-05 07:08:09'],
    ['%F %T', '2024-03-05 07:08:09'],
    ['%E*S', '09.12'],
    ['%E6S', '09.120000'],
    ['%E3S', '09.120'],
    ['%Ez|%z|%Z', '+00:00|+0000|UTC'],
    ['%a %A %b %B %h', 'Tue Tuesday Mar March Mar'],
    ['%j', '065'],
    ['%s', String(Math.floor(t / 1e6))],
    ['100%%', '100%'],
    ['%y %e %I %p', '24  5 07 AM'],
    ['%Q', '%Q'],
  ])('%s', (f, expected) => {
    expect(formatTimestampPattern(f, t)).toBe(expected);
  });
  it('%E*S without a fraction', () => {
    expect(formatTimestampPattern('%E*S', T('2024-03-05T07:08:09Z'))).toBe('09');
  });
  it('fixed-offset zones', () => {
    expect(formatTimestampPattern('%F %T %Ez %Z', t, '+05:30')).toBe('2024-03-05 12:38:09 +05:30 UTC+05:30');
    expect(formatTimestampPattern('%H %z', t, '-08')).toBe('23 -0800');
    expect(() => formatTimestampPattern('%H', t, 'Mars/Base')).toThrow();
  });
});
