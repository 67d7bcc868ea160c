// The physical operator interface: lazy, pull-based, batch at a time. Rows are opaque to
// consumers; a column is read through the accessor its producer hands out for that column id.

import type { Accessor } from '../plan/compile-expr.ts';
import type { ScanRow } from './scan-row.ts';

export interface Operator {
  /**
   * Next batch of rows, or null when exhausted. An EMPTY batch means "not done, but this query's slice of
   * the event loop is used up": every operator passes it straight up, and the runner yields before
   * asking again (cooperative slicing, SPEC §11). Operators keep their place to resume from.
   */
  next(): unknown[] | null;
  /** Reads column `id` from one of this operator's rows. */
  acc(id: number): Accessor;
  /** Maps a row to the stored event row of scan `scanId` it derives from, when rows still carry it. */
  raw(scanId: number): ((row: unknown) => ScanRow) | null;
}

export function missingColumn(id: number, where: string): never {
  throw new Error(`internal: column #${id} is not produced by ${where}`);
}

/** The accessor of column `id` for an operator whose rows are arrays of values in the order of `ids`. */
export function arrayAccessor(ids: readonly number[], id: number, where: string): Accessor {
  const i = ids.indexOf(id);
  if (i < 0) missingColumn(id, where);
  return (r) => (r as ReturnType<Accessor>[])[i]!;
}
