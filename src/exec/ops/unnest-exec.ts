// UnnestExec: the lateral join of each input row with the elements of an array it holds
// (CROSS JOIN UNNEST drops rows with no elements, LEFT JOIN UNNEST keeps them with NULL).

import type { Accessor } from '../../plan/compile-expr.ts';
import type { ExecContext } from '../context.ts';
import type { Operator } from '../operator.ts';
import type { ScanRow } from '../scan-row.ts';
import type { Value } from '../../core/values.ts';

/** Output rows per batch. */
const MAX_OUT = 4096;

export class UnnestExec implements Operator {
  /** Resume point: the input batch, the row in it, and (for a row whose array is being cut) its elements. */
  private batch: unknown[] | null = null;
  private row = 0;
  private elem = 0;
  private elems: readonly Value[] | null = null;

  constructor(
    private readonly input: Operator,
    private readonly array: Accessor,
    private readonly outer: boolean,
    private readonly elemId: number,
    private readonly offsetId: number | null,
    private readonly ctx: ExecContext,
  ) {}

  next(): unknown[] | null {
    for (;;) {
      if (this.batch === null) {
        const b = this.input.next();
        if (b === null || b.length === 0) return b;
        this.batch = b;
        this.row = 0;
        this.elem = 0;
      }
      const batch = this.batch;
      const out: unknown[] = [];
      // Resumable at any element: one row holding a huge array yields batches of MAX_OUT rows.
      while (this.row < batch.length && out.length < MAX_OUT) {
        const r = batch[this.row];
        const v = this.elems ?? this.array(r);
        const elems: readonly Value[] | null = Array.isArray(v) ? v : v !== null && typeof v === 'object' ? [v as Value] : null;
        if (elems && elems.length) {
          let j = this.elem;
          const stop = Math.min(elems.length, j + (MAX_OUT - out.length));
          for (; j < stop; j++) out.push([r, elems[j] ?? null, j]);
          if (j < elems.length) { this.elems = elems; this.elem = j; break; }
        } else if (this.outer) {
          out.push([r, null, null]);
        }
        this.elems = null;
        this.elem = 0;
        this.row++;
        if (this.ctx.yieldDue) break;
      }
      if (this.row >= batch.length) this.batch = null;
      this.ctx.charge(out.length);
      if (out.length || this.ctx.yieldDue) return out;
    }
  }

  acc(id: number): Accessor {
    if (id === this.elemId) return (r) => (r as unknown[])[1] as Value;
    if (id === this.offsetId) return (r) => (r as unknown[])[2] as Value;
    const inner = this.input.acc(id);
    return (r) => inner((r as unknown[])[0]);
  }

  raw(scanId: number): ((row: unknown) => ScanRow) | null {
    const inner = this.input.raw(scanId);
    return inner ? (r) => inner((r as unknown[])[0]) : null;
  }
}
