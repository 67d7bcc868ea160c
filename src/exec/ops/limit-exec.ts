// LimitExec: LIMIT and OFFSET over batches, ending the input once the limit is reached.

import type { Accessor } from '../../plan/compile-expr.ts';
import type { Operator } from '../operator.ts';
import type { ScanRow } from '../scan-row.ts';

export class LimitExec implements Operator {
  private skipped = 0;
  private emitted = 0;
  constructor(private readonly input: Operator, private readonly limit: number | null, private readonly offset: number) {}
  next(): unknown[] | null {
    for (;;) {
      if (this.limit !== null && this.emitted >= this.limit) return null;
      let batch = this.input.next();
      if (batch === null || batch.length === 0) return batch;
      if (this.skipped < this.offset) {
        const skip = Math.min(this.offset - this.skipped, batch.length);
        this.skipped += skip;
        batch = batch.slice(skip);
        if (!batch.length) continue;
      }
      if (this.limit !== null && this.emitted + batch.length > this.limit) batch = batch.slice(0, this.limit - this.emitted);
      this.emitted += batch.length;
      return batch;
    }
  }
  acc(id: number): Accessor { return this.input.acc(id); }
  raw(scanId: number): ((row: unknown) => ScanRow) | null { return this.input.raw(scanId); }
}
