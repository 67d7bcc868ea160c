// Per-query execution context: the row and time budget every operator charges as it works,
// so that one heavy query is cut off with a clear error instead of stalling the server.

import { RingqlError } from '../core/errors.ts';

export interface Budget {
  /** Wall-clock budget in milliseconds. */
  timeoutMs: number;
  /** Rows scanned or produced (scan rows, unnest/join output) before the query is refused. */
  maxRows: number;
}

export const DEFAULT_BUDGET: Budget = { timeoutMs: 10_000, maxRows: 200_000_000 };

export class ExecContext {
  private rows = 0;
  private readonly deadline: number;
  constructor(readonly budget: Budget = DEFAULT_BUDGET) {
    this.deadline = performance.now() + budget.timeoutMs;
  }
  /** Charges `n` rows of work; throws once the row or time budget is spent. */
  charge(n: number): void {
    this.rows += n;
    if (this.rows > this.budget.maxRows) {
      throw new RingqlError('query_timeout', `The query processed more than ${this.budget.maxRows} rows (RINGQL_QUERY_MAX_ROWS), over its work budget, and was stopped; narrow the time range or add filters`);
    }
    if (performance.now() > this.deadline) {
      throw new RingqlError('query_timeout', `The query ran longer than its ${this.budget.timeoutMs} ms budget and was stopped; narrow the time range or add filters`, { retry_after: 1 });
    }
  }
  get rowsProcessed(): number {
    return this.rows;
  }
}
