// PARSE_TIMESTAMP, PARSE_DATE and FORMAT_DATE against BigQuery's documented examples; TIMESTAMPs are
// µs since the epoch, DATEs 'YYYY-MM-DD'.

import { describe, expect, it } from 'vitest';
import { errorOf, rows } from '../dialect/run-sql.ts';

const one = (expr: string): unknown => rows(`select ${expr} as x`)[0]!['x'];
const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number => Date.UTC(y, mo - 1, d, h, mi, s) * 1000;
const XMAS = utc(2008, 12, 25, 7, 30);

describe('PARSE_TIMESTAMP', () => {
  it("BigQuery's examples: %c and its spelled-out form", () => {
    expect(one(`parse_timestamp('%c', 'Thu Dec 25 07:30:00 2008')`)).toBe(XMAS);
    expect(one(`parse_timestamp('%a %b %e %I:%M:%S %Y', 'Thu Dec 25 07:30:00 2008')`)).toBe(XMAS);
  });
  it('%F %T, %E*S / %E6S fractions, %s', () => {
    expect(one(`parse_timestamp('%F %T', '2008-12-25 07:30:00')`)).toBe(XMAS);
    expect(one(`parse_timestamp('%Y-%m-%d %H:%M:%E*S', '2008-12-25 07:30:00.123456')`)).toBe(XMAS + 123456);
    expect(one(`parse_timestamp('%Y-%m-%d %H:%M:%E*S', '2008-12-25 07:30:00')`)).toBe(XMAS);
    expect(one(`parse_timestamp('%Y-%m-%d %H:%M:%E6S', '2008-12-25 07:30:00.5')`)).toBe(XMAS + 500000);
    expect(one(`parse_timestamp('%s', '${XMAS / 1e6}')`)).toBe(XMAS);
  });
  it('a time zone argument, and an offset in the text that wins over it', () => {
    expect(one(`parse_timestamp('%F %T', '2008-12-25 07:30:00', '-08:00')`)).toBe(utc(2008, 12, 25, 15, 30));
    expect(one(`parse_timestamp('%F %T%z', '2008-12-25 07:30:00+0100')`)).toBe(utc(2008, 12, 25, 6, 30));
    expect(one(`parse_timestamp('%F %T%z', '2008-12-25 07:30:00+0100', '+05:00')`)).toBe(utc(2008, 12, 25, 6, 30));
    expect(one(`parse_timestamp('%F %T %Z', '2008-12-25 07:30:00 UTC')`)).toBe(XMAS);
  });
  it('%I with %p; unset fields default to 1970-01-01 00:00:00', () => {
    expect(one(`parse_timestamp('%F %I:%M %p', '2008-12-25 12:30 AM')`)).toBe(utc(2008, 12, 25, 0, 30));
    expect(one(`parse_timestamp('%F %I:%M %p', '2008-12-25 12:30 PM')`)).toBe(utc(2008, 12, 25, 12, 30));
    expect(one(`parse_timestamp('%F %I:%M %p', '2008-12-25 07:30 pm')`)).toBe(utc(2008, 12, 25, 19, 30));
    expect(one(`parse_timestamp('%H:%M', '07:30')`)).toBe(utc(1970, 1, 1, 7, 30));
  });
  it('white space: leading/trailing always allowed, a format space matches zero or more', () => {
    expect(one(`parse_timestamp('%F %T', '  2008-12-25    07:30:00 ')`)).toBe(XMAS);
    expect(one(`parse_timestamp('%Y%m%d %H%M', '20081225 0730')`)).toBe(XMAS);
  });
  it('a text that does not match is query_error without quoting it; SAFE. gives NULL', () => {
    const e = errorOf(`select parse_timestamp('%a %b %e %Y', 'Thu Dec 25 07:30:00 2008') as x`);
    expect(e.code).toBe('query_error');
    expect(e.message).toContain('Failed to parse input string');
    expect(e.message).not.toContain('07:30');
    expect(one(`safe.parse_timestamp('%a %b %e %Y', 'Thu Dec 25 07:30:00 2008')`)).toBeNull();
    expect(errorOf(`select parse_timestamp('%F %T', '2008-12-25 25:00:00') as x`).code).toBe('query_error');
    expect(one(`parse_timestamp('%F', null)`)).toBeNull();
  });
});

describe('PARSE_DATE', () => {
  it("BigQuery's examples", () => {
    expect(one(`parse_date('%A %b %e %Y', 'Thursday Dec 25 2008')`)).toBe('2008-12-25');
    expect(one(`parse_date('%Y%m%d', '20081225')`)).toBe('2008-12-25');
    expect(one(`parse_date('%F', '2000-12-30')`)).toBe('2000-12-30');
    expect(one(`parse_date('%x', '12/25/08')`)).toBe('2008-12-25');
    expect(one(`parse_date('%B %d, %Y', 'December 25, 2008')`)).toBe('2008-12-25');
  });
  it('%j day of year, %y century rule (00-68 → 20xx, 69-99 → 19xx), %%', () => {
    expect(one(`parse_date('%Y %j', '2008 360')`)).toBe('2008-12-25');
    expect(one(`parse_date('%d/%m/%y', '01/02/69')`)).toBe('1969-02-01');
    expect(one(`parse_date('%d/%m/%y', '01/02/68')`)).toBe('2068-02-01');
    expect(one(`parse_date('%Y%%%m%%%d', '2008%12%25')`)).toBe('2008-12-25');
  });
  it('elements in the wrong place, impossible dates: query_error; SAFE. → NULL', () => {
    expect(errorOf(`select parse_date('%Y %A %b %e', 'Thursday Dec 25 2008') as x`).code).toBe('query_error');
    expect(errorOf(`select parse_date('%F', '2009-02-29') as x`).code).toBe('query_error');
    expect(one(`safe.parse_date('%F', '2009-02-29')`)).toBeNull();
    expect(one(`parse_date('%F', '2008-02-29')`)).toBe('2008-02-29');
  });
  it('an unsupported element is query_error', () => {
    expect(errorOf(`select parse_date('%Q', '1') as x`)).toMatchObject({ code: 'query_error', message: expect.stringContaining('Unsupported format element %Q') });
  });
});

describe('FORMAT_DATE', () => {
  it("BigQuery's examples", () => {
    expect(one(`format_date('%x', date '2008-12-25')`)).toBe('12/25/08');
    expect(one(`format_date('%b-%d-%Y', date '2008-12-25')`)).toBe('Dec-25-2008');
    expect(one(`format_date('%b %Y', date '2008-12-25')`)).toBe('Dec 2008');
  });
  it('names, day of year, %e padding, %F, %%', () => {
    expect(one(`format_date('%A %B %e %j', '2008-12-05')`)).toBe('Friday December  5 340');
    expect(one(`format_date('%a %F %%', '2008-12-25')`)).toBe('Thu 2008-12-25 %');
  });
  it('round trip with PARSE_DATE and over DATE(timestamp)', () => {
    expect(one(`format_date('%Y/%m/%d', parse_date('%F', '2024-02-29'))`)).toBe('2024/02/29');
    expect(one(`format_date('%F', date(timestamp '2024-01-15 05:00:00'))`)).toBe('2024-01-15');
  });
  it('a non-date argument is a signature error', () => {
    expect(errorOf(`select format_date('%F', 1) as x`).message).toContain('No matching signature for function FORMAT_DATE');
  });
});
