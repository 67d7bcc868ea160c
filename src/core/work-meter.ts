// The work meter of one query (SPEC §11): every unit of work — rows scanned and produced, per-row
// expressions, bytes of large values made by functions, constant folding — is charged here, so the
// time budget is a real bound; it also marks when a slice of the event loop is used up (cooperative slicing).

import { RingqlError } from './errors.ts';

/** Work units between two reads of the clock (a row is one unit, a KiB of a large value is one unit). */
const CHECK_EVERY = 32;
/** A produced string or array this large (or a quarter of the value cap, if less) counts toward the query's large-value bytes. */
export const LARGE_VALUE_BYTES = 64 * 1024;
/** Results shorter than this are never measured (they cannot matter to any cap). */
export const MEASURE_FROM = 256;

export interface MeterLimits {
  /** Wall-clock budget of the whole query, ms. */
  timeoutMs: number;
  /** Largest single value (string UTF-8 bytes, or array elements × 8), bytes. */
  maxValueBytes: number;
  /** Sum of large values (≥ LARGE_VALUE_BYTES each) one query may produce, bytes. */
  maxLargeValueBytesPerQuery: number;
}

export const DEFAULT_MAX_VALUE_BYTES = 16 * 1024 * 1024;

export const DEFAULT_METER_LIMITS: MeterLimits = {
  timeoutMs: 10_000,
  maxValueBytes: DEFAULT_MAX_VALUE_BYTES,
  maxLargeValueBytesPerQuery: 16 * DEFAULT_MAX_VALUE_BYTES,
};

export class WorkMeter {
  private units = 0;
  private nextCheck = CHECK_EVERY;
  private readonly deadline: number;
  private sliceEnd = Infinity;
  private largeBytes = 0;
  private readonly largeFrom: number;
  /** The current slice is used up: operators stop at the next row they can resume from. */
  sliceDue = false;
  /** Slices started so far (tests show a run really was cut). */
  slices = 0;

  constructor(readonly limits: MeterLimits = DEFAULT_METER_LIMITS, startedAt = performance.now()) {
    this.deadline = startedAt + limits.timeoutMs;
    this.largeFrom = Math.max(MEASURE_FROM, Math.min(LARGE_VALUE_BYTES, Math.floor(limits.maxValueBytes / 4)));
  }

  /** Starts a slice of `ms` (cooperative runs); a meter never sliced runs to its deadline in one go. */
  startSlice(ms: number): void {
    this.slices++;
    this.sliceDue = false;
    this.sliceEnd = performance.now() + ms;
  }

  /** Ends slicing (a synchronous run from here on). */
  stopSlicing(): void {
    this.sliceDue = false;
    this.sliceEnd = Infinity;
  }

  /**
   * Runs `fn` without slice ends (a subquery used inside an expression must finish there): the deadline
   * still holds. The slice's state is restored afterwards.
   */
  unsliced<T>(fn: () => T): T {
    const end = this.sliceEnd, due = this.sliceDue;
    this.sliceEnd = Infinity;
    this.sliceDue = false;
    try {
      return fn();
    } finally {
      this.sliceEnd = end;
      this.sliceDue = due || performance.now() > end;
    }
  }

  /** Charges `n` units of work; reads the clock every CHECK_EVERY units. */
  tick(n = 1): void {
    this.units += n;
    if (this.units >= this.nextCheck) this.check();
  }

  /** Reads the clock now: over the deadline throws query_timeout; past the slice end sets sliceDue. */
  check(): void {
    this.nextCheck = this.units + CHECK_EVERY;
    const now = performance.now();
    if (now > this.deadline) throw timeoutError(this.limits.timeoutMs);
    if (now > this.sliceEnd) this.sliceDue = true;
  }

  /** Charges a produced value of `bytes`: checks the single-value cap and the per-query large-value sum. */
  produced(bytes: number, what: string): void {
    if (bytes > this.limits.maxValueBytes) throw valueTooLarge(what, bytes, this.limits.maxValueBytes);
    if (bytes < this.largeFrom) return;
    this.largeBytes += bytes;
    if (this.largeBytes > this.limits.maxLargeValueBytesPerQuery) {
      throw new RingqlError(
        'value_too_large',
        `The query made more than ${this.limits.maxLargeValueBytesPerQuery} bytes of large values (strings or arrays of ${this.largeFrom} bytes or more) and was stopped`,
        { limit: this.limits.maxLargeValueBytesPerQuery },
      );
    }
    this.tick(bytes >>> 10);
  }

  get workUnits(): number {
    return this.units;
  }
}

export function timeoutError(timeoutMs: number): RingqlError {
  return new RingqlError('query_timeout', `The query ran longer than its ${timeoutMs} ms budget and was stopped; narrow the time range or add filters`, { retry_after: 1 });
}

export function valueTooLarge(what: string, bytes: number, limit: number): RingqlError {
  return new RingqlError('value_too_large', `${what} would be ${bytes} bytes, over the ${limit}-byte limit on one value (RINGQL_MAX_VALUE_BYTES)`, { limit });
}

/**
 * The meter of the query running now. Queries interleave only at slice boundaries, and the runner sets
 * this before each slice, so kernels (which take no context) charge the right query. Outside any query
 * (tests calling kernels directly) a meter with the default value cap and no deadline or sum stands in.
 */
const UNMETERED = new WorkMeter({ ...DEFAULT_METER_LIMITS, maxLargeValueBytesPerQuery: Infinity }, Infinity);
let active: WorkMeter = UNMETERED;

export function activeMeter(): WorkMeter {
  return active;
}

/** Makes `m` the active meter and returns the previous one (restore it when the slice ends). */
export function activateMeter(m: WorkMeter): WorkMeter {
  const prev = active;
  active = m;
  return prev;
}

/** Runs `fn` with `m` active, restoring the previous meter afterwards. */
export function withMeter<T>(m: WorkMeter, fn: () => T): T {
  const prev = activateMeter(m);
  try {
    return fn();
  } finally {
    active = prev;
  }
}

/** UTF-8 bytes of a string, counted only as far as needed to compare with a cap (length ≤ bytes ≤ 3 × length). */
export function stringBytesOver(s: string, cap: number): number {
  if (s.length > cap) return s.length;
  if (s.length * 3 <= cap) return s.length;
  return Buffer.byteLength(s, 'utf8');
}
