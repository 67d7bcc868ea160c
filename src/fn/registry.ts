// BigQuery functions as data (name, arity, type rule, kernel), as sqlglot models them: the
// grammar knows only generic calls; the binder looks names up here and the executor runs kernels.

import type { SqlType } from '../core/types.ts';
import type { Value } from '../core/values.ts';

/** A pure kernel over evaluated arguments. `strict` kernels never see NULL arguments. */
export type Kernel = (...args: Value[]) => Value;

export interface FnDef {
  name: string;
  minArgs: number;
  maxArgs: number;
  /** Result type from argument types; throws RingqlError('query_error') on a misuse it can see. */
  type: (args: SqlType[]) => SqlType;
  /** NULL in any argument gives NULL without calling the kernel. */
  strict: boolean;
  kernel: Kernel;
  /** Builds a kernel specialised for constant arguments (e.g. a compiled regex); `undefined` = not constant. */
  specialize?: (consts: (Value | undefined)[]) => Kernel | null;
  /** Arguments at these positions are date parts (MINUTE, DAY, ...) given as bare names. */
  datePartArgs?: number[];
}

/** Accumulator of one aggregate over one group. */
export interface Accumulator {
  add(args: Value[]): void;
  result(): Value;
}

export interface AggDef {
  name: string;
  minArgs: number;
  maxArgs: number;
  type: (args: SqlType[]) => SqlType;
  /** Rows whose first argument is NULL are skipped (true for all but COUNT(*)). */
  create(constArgs: (Value | undefined)[], distinct: boolean): Accumulator;
}

const scalars = new Map<string, FnDef>();
const aggregates = new Map<string, AggDef>();

export function registerScalar(def: FnDef): void {
  scalars.set(def.name.toUpperCase(), def);
}

export function registerAggregate(def: AggDef): void {
  aggregates.set(def.name.toUpperCase(), def);
}

export function scalarFunction(name: string): FnDef | undefined {
  return scalars.get(name.toUpperCase());
}

export function aggregateFunction(name: string): AggDef | undefined {
  return aggregates.get(name.toUpperCase());
}

/** Shorthand for a strict kernel with a fixed result type. */
export function simple(name: string, minArgs: number, maxArgs: number, ret: SqlType | ((a: SqlType[]) => SqlType), kernel: Kernel, strict = true): FnDef {
  return { name, minArgs, maxArgs, type: typeof ret === 'function' ? ret : () => ret, strict, kernel };
}
