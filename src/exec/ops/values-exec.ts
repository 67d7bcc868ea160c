// ValuesExec: the rows of constant expressions (SELECT without FROM).

import type { Accessor } from '../../plan/compile-expr.ts';
import { missingColumn, type Operator } from '../operator.ts';

/** Rows of constant expressions (SELECT without FROM): each row is an array of values. */
export class ValuesExec implements Operator {
  private done = false;
  constructor(private readonly rows: unknown[][], private readonly ids: number[]) {}
  next(): unknown[] | null {
    if (this.done) return null;
    this.done = true;
    return this.rows.length ? this.rows : null;
  }
  acc(id: number): Accessor {
    const i = this.ids.indexOf(id);
    if (i < 0) missingColumn(id, 'VALUES');
    return (r) => (r as unknown[])[i] as ReturnType<Accessor>;
  }
  raw(): null { return null; }
}
