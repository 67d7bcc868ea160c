// Microsecond units and the BigQuery TIMESTAMP range: timestamps are integer µs since the epoch (UTC).

export const US_PER_MS = 1_000;
export const US_PER_SECOND = 1_000_000;
export const US_PER_MINUTE = 60 * US_PER_SECOND;
export const US_PER_HOUR = 60 * US_PER_MINUTE;
export const US_PER_DAY = 24 * US_PER_HOUR;

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z, the BigQuery TIMESTAMP range. */
export const MIN_TIMESTAMP_US = -62_135_596_800_000_000;
export const MAX_TIMESTAMP_US = 253_402_300_799_999_999;

/** The largest double below MAX_TIMESTAMP_US's: floors of the maximum computed from it stay in year 9999. */
export const BELOW_MAX_US = 253_402_300_799_999_968;
