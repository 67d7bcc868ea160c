// Per-query execution context: the row budget and the work meter every operator charges as it works,
// so that one heavy query is cut off with a clear error, and yields its slice so it never stalls the server.

import { RingqlError } from '../core/errors.ts';
import { DEFAULT_QUERY_MAX_ROWS, DEFAULT_QUERY_TIMEOUT_MS } from '../core/config.ts';
import type { Plan, ScanPlan } from '../plan/bound.ts';
import type { Value } from '../core/values.ts';
import { DEFAULT_METER_LIMITS, WorkMeter, type MeterLimits } from '../core/work-meter.ts';

export interface Budget {
  /** Wall-clock budget in milliseconds (planning, scanning, expressions, sorting, serialising). */
  timeoutMs: number;
  /** Rows scanned or produced (scan rows, unnest/join output) before the query is refused. */
  maxRows: number;
  /** Largest single value, bytes (RINGQL_MAX_VALUE_BYTES); default 16 MiB. */
  maxValueBytes?: number;
}

export const DEFAULT_BUDGET: Budget = { timeoutMs: DEFAULT_QUERY_TIMEOUT_MS, maxRows: DEFAULT_QUERY_MAX_ROWS };

/** The meter limits a budget implies: large values per query are capped at 16 single values. */
export function meterLimits(budget: Budget): MeterLimits {
  const maxValueBytes = budget.maxValueBytes ?? DEFAULT_METER_LIMITS.maxValueBytes;
  return { timeoutMs: budget.timeoutMs, maxValueBytes, maxLargeValueBytesPerQuery: 16 * maxValueBytes };
}

export class ExecContext {
  private rows = 0;
  /** Stored rows read by scans (the X-Ringql-Rows-Scanned stat); counted apart from the row budget. */
  scanned = 0;
  readonly meter: WorkMeter;
  /** Uncorrelated subqueries registered while building, run (sliced) before the main pipeline pulls rows. */
  readonly preloads: { step(): boolean }[] = [];
  /** Rows the bucket cache computed for an aggregation the physical plan answers from it (run context, not plan). */
  bucketRows: Map<Plan, Value[][]> | null = null;
  /** Planned scans this run reads with other bounds (the bucket cache's fills of prepared partials): run context, not plan. */
  scanBounds: ReadonlyMap<ScanPlan, ScanPlan> | null = null;
  /** Scans of this run read only events ingested after this sequence number (the bucket cache's increments). */
  afterSeq: number | null = null;
  /** The same per source name (a live feed's rows since its last message); wins over afterSeq for a listed source. */
  afterSeqBySource: ReadonlyMap<string, number> | null = null;
  constructor(readonly budget: Budget = DEFAULT_BUDGET, meter?: WorkMeter) {
    this.meter = meter ?? new WorkMeter(meterLimits(budget));
  }
  /** Charges `n` rows of work; throws once the row or time budget is spent. */
  charge(n: number): void {
    this.rows += n;
    if (this.rows > this.budget.maxRows) {
      throw new RingqlError('query_timeout', `The query processed more than ${this.budget.maxRows} rows (RINGQL_QUERY_MAX_ROWS), over its work budget, and was stopped; narrow the time range or add filters`);
    }
    this.meter.tick(n);
    if (n === 0) this.meter.check();
  }
  /** True when the current slice is used up: an operator returns what it has (or an empty batch). */
  get yieldDue(): boolean {
    return this.meter.sliceDue;
  }
  get rowsProcessed(): number {
    return this.rows;
  }
}
