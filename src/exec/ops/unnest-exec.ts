// UnnestExec: the lateral join of each input row with the elements of an array it holds
// (CROSS JOIN UNNEST drops rows with no elements, LEFT JOIN UNNEST keeps them with NULL).

import type { Accessor } from '../../fn/compile-expr.ts';
import type { ExecContext } from '../context.ts';
import type { Operator } from '../operator.ts';
import type { ScanRow } from '../scan-row.ts';
import type { Value } from '../values.ts';

export class UnnestExec implements Operator {
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
      const batch = this.input.next();
      if (batch === null) return null;
      const out: unknown[] = [];
      for (let i = 0; i < batch.length; i++) {
        const r = batch[i];
        const v = this.array(r);
        const elems: readonly Value[] | null = Array.isArray(v) ? v : v !== null && typeof v === 'object' ? [v as Value] : null;
        if (elems && elems.length) {
          for (let j = 0; j < elems.length; j++) out.push([r, elems[j] ?? null, j]);
        } else if (this.outer) {
          out.push([r, null, null]);
        }
      }
      this.ctx.charge(out.length);
      if (out.length) return out;
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
