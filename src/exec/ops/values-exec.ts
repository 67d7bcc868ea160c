// ValuesExec: the rows of constant expressions (SELECT without FROM).

import type { Accessor } from '../../plan/compile-expr.ts';
import { arrayAccessor, type Operator } from '../operator.ts';

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
    return arrayAccessor(this.ids, id, 'VALUES');
  }
  raw(): null { return null; }
}
