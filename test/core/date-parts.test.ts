// The one date-part table: BigQuery's part names, the fixed lengths (a WEEK is 7 days, MONTH has none),
// and which truncations floor to a multiple since the epoch (1970-01-01 was a Thursday, so not WEEK).

import { describe, expect, it } from 'vitest';
import { fixedPartUs, isDatePart, truncWidthUs } from '../../src/core/date-parts.ts';
import { addInterval, truncTimestamp } from '../../src/core/time-arithmetic.ts';
import { parseTimestamp } from '../../src/core/time.ts';

const us = (s: string): number => parseTimestamp(s)!;

describe('date parts', () => {
  it('knows BigQuery part names and refuses others', () => {
    for (const p of ['MICROSECOND', 'SECOND', 'WEEK', 'MONTH', 'QUARTER', 'YEAR', 'ISOWEEK', 'ISOYEAR', 'DAYOFWEEK', 'DAYOFYEAR', 'DATE']) expect(isDatePart(p)).toBe(true);
    for (const p of ['FORTNIGHT', 'hour', 'constructor', '']) expect(isDatePart(p)).toBe(false);
  });

  it('gives fixed lengths only where a part has one', () => {
    expect(fixedPartUs('MILLISECOND')).toBe(1000);
    expect(fixedPartUs('HOUR')).toBe(3600 * 1e6);
    expect(fixedPartUs('WEEK')).toBe(7 * 86_400 * 1e6);
    expect(fixedPartUs('MONTH')).toBeUndefined();
    expect(fixedPartUs('toString')).toBeUndefined();
  });

  it('floors to a width only for MICROSECOND..DAY, as TIMESTAMP_TRUNC does', () => {
    expect(truncWidthUs('DAY')).toBe(86_400 * 1e6);
    expect(truncWidthUs('WEEK')).toBeUndefined();
    expect(truncWidthUs('MONTH')).toBeUndefined();
    const t = us('2024-03-07 13:45:12.345678+00');
    for (const p of ['MICROSECOND', 'MILLISECOND', 'SECOND', 'MINUTE', 'HOUR', 'DAY']) {
      const w = truncWidthUs(p)!;
      expect(truncTimestamp(t, p)).toBe(Math.floor(t / w) * w);
    }
    // 2024-03-07 is a Thursday; its week (starting Sunday) began on 2024-03-03, not at a multiple of 7 days.
    expect(truncTimestamp(t, 'WEEK')).toBe(us('2024-03-03 00:00:00+00'));
  });

  it('is what INTERVAL arithmetic adds', () => {
    const t = us('2024-01-31 00:00:00+00');
    expect(addInterval(t, 1, 'WEEK')).toBe(us('2024-02-07 00:00:00+00'));
    expect(addInterval(t, 1, 'MONTH')).toBe(us('2024-02-29 00:00:00+00'));
  });
});
