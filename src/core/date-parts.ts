// The one table of BigQuery date parts: which names exist (INTERVAL units, EXTRACT/TRUNC parts), which
// have a fixed length in microseconds, and which truncate by flooring to a multiple of that length.

export interface DatePart {
  /** Fixed length in µs, or null for calendar parts (MONTH, QUARTER, YEAR, ...). */
  us: number | null;
  /** TIMESTAMP_TRUNC to this part floors to a multiple of `us` since the epoch (not WEEK: weeks start on Sunday). */
  epochAligned: boolean;
}

const fixed = (us: number, epochAligned = true): DatePart => ({ us, epochAligned });
const calendar: DatePart = { us: null, epochAligned: false };

export const DATE_PARTS: Readonly<Record<string, DatePart>> = {
  MICROSECOND: fixed(1),
  MILLISECOND: fixed(1e3),
  SECOND: fixed(1e6),
  MINUTE: fixed(6e7),
  HOUR: fixed(3.6e9),
  DAY: fixed(8.64e10),
  WEEK: fixed(6.048e11, false),
  MONTH: calendar,
  QUARTER: calendar,
  YEAR: calendar,
  ISOWEEK: calendar,
  ISOYEAR: calendar,
  DAYOFWEEK: calendar,
  DAYOFYEAR: calendar,
  DATE: calendar,
  TIME: calendar,
  DATETIME: calendar,
};

/** Whether `name` (upper case) is a date part the binder accepts. */
export function isDatePart(name: string): boolean {
  return Object.hasOwn(DATE_PARTS, name);
}

/** Fixed length in µs of a part (MICROSECOND..WEEK), or undefined for calendar parts and unknown names. */
export function fixedPartUs(name: string): number | undefined {
  return (Object.hasOwn(DATE_PARTS, name) ? DATE_PARTS[name]!.us : null) ?? undefined;
}

/** Bucket width in µs when TIMESTAMP_TRUNC(ts, part) floors to a multiple of it (MICROSECOND..DAY), else undefined. */
export function truncWidthUs(name: string): number | undefined {
  return Object.hasOwn(DATE_PARTS, name) && DATE_PARTS[name]!.epochAligned ? DATE_PARTS[name]!.us ?? undefined : undefined;
}
