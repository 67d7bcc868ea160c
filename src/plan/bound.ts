// Bound expressions and logical plan nodes: what the binder produces from the AST, the rules
// rewrite, EXPLAIN prints and the executor compiles. Columns are identified by unique numeric ids.

import type { SqlType } from '../core/types.ts';
import type { Value } from '../core/values.ts';
import type { FnDef, AggDef } from '../fn/registry.ts';
import type { SourceHandle } from './catalog.ts';

/** Where a column's value comes from, when it is a path inside one scanned event. */
export interface Origin {
  scan: ScanPlan;
  /** Path from the event's top: ['timestamp'], ['metadata'], ['metadata','request','url']. */
  path: string[];
  /** The value is one element of an unnested record array (not the array itself). */
  element: boolean;
}

export interface ColInfo {
  id: number;
  name: string;
  type: SqlType;
  origin?: Origin;
  /** Set when the column is a constant of a one-row constant relation (a CTE like `dates`). */
  constant?: { value: Value; clock?: Clock; src?: Extract<BExpr, { k: 'const' }> };
}

/**
 * How a constant depends on CURRENT_TIMESTAMP: 'affine' is exactly now + a fixed offset (now itself,
 * or TIMESTAMP_SUB/ADD of a fixed-length interval); 'other' is any other function of now. Absent:
 * independent of the clock. Lets the bucket cache know when an answer stays valid as time passes.
 */
export type Clock = 'affine' | 'other';

export type BExpr =
  /** `param`/`src`: computed from a parameter value, or folded from such constants (plan/param-trace.ts). */
  | { k: 'const'; value: Value; type: SqlType; clock?: Clock; param?: string; src?: BExpr }
  | { k: 'col'; id: number; name: string; type: SqlType; origin?: Origin }
  | { k: 'field'; base: BExpr; name: string; type: SqlType }
  | { k: 'call'; fn: FnDef; args: BExpr[]; type: SqlType; safe: boolean }
  | { k: 'and' | 'or'; args: BExpr[]; type: 'BOOL' }
  | { k: 'not'; arg: BExpr; type: 'BOOL' }
  | { k: 'case'; whens: { when: BExpr; then: BExpr }[]; else: BExpr; type: SqlType }
  | { k: 'cast'; arg: BExpr; to: SqlType; safe: boolean; type: SqlType }
  | { k: 'in'; arg: BExpr; list: BExpr[]; not: boolean; type: 'BOOL' }
  | { k: 'inArray'; arg: BExpr; array: BExpr; not: boolean; type: 'BOOL' }
  | { k: 'subquery'; plan: Plan; mode: 'scalar' | 'exists' | 'in' | 'array'; arg?: BExpr; not?: boolean; type: SqlType }
  /**
   * `EXISTS(SELECT … FROM UNNEST(array) AS elem WHERE pred)` over the current row's array: TRUE when
   * `pred` is TRUE for some element (`elem` is the element, other columns the current row's), else FALSE.
   */
  | { k: 'anyElement'; array: BExpr; elem: ColInfo; pred: BExpr; type: 'BOOL' }
  | { k: 'subscript'; base: BExpr; index: BExpr; mode: 'offset' | 'safe_offset' | 'ordinal' | 'safe_ordinal'; type: SqlType }
  | { k: 'array'; elements: BExpr[]; type: 'ARRAY' }
  | { k: 'struct'; fields: { name: string; expr: BExpr }[]; type: 'STRUCT' }
  | { k: 'agg'; agg: AggDef; args: BExpr[]; distinct: boolean; star: boolean; type: SqlType; mods?: AggMods };

/**
 * Modifiers inside an aggregate call (ARRAY_AGG / STRING_AGG): rows whose argument is NULL dropped,
 * sort keys over the input row (ASC puts NULLs first), and the most inputs kept. Absent when none apply.
 */
export interface AggMods {
  ignoreNulls: boolean;
  order: { expr: BExpr; desc: boolean; nullsFirst: boolean }[];
  limit: number | null;
}

export interface ScanPlan {
  k: 'scan';
  source: SourceHandle;
  alias: string;
  cols: ColInfo[];
  /** Pushed-down filters (set by the pushdown rule). */
  project?: string | null;
  minTs?: number;
  minInclusive?: boolean;
  maxTs?: number;
  maxInclusive?: boolean;
  /** Set when a pushed-down bound came from a clock-dependent constant (see Clock). */
  minTsClock?: Clock;
  maxTsClock?: Clock;
  order: 'desc' | 'asc' | 'any';
  /** Unique per scan node: keys per-row caches. */
  scanId: number;
}

export type Plan =
  | ScanPlan
  | { k: 'values'; rows: BExpr[][]; cols: ColInfo[] }
  /** Rows computed elsewhere (the precomputed bucket cache), one value per column. */
  | { k: 'rows'; rows: Value[][]; cols: ColInfo[]; note: string }
  | { k: 'filter'; input: Plan; pred: BExpr; cols: ColInfo[] }
  | { k: 'project'; input: Plan; exprs: BExpr[]; cols: ColInfo[] }
  | { k: 'unnest'; input: Plan; array: BExpr; outer: boolean; col: ColInfo; offsetCol?: ColInfo; cols: ColInfo[] }
  | { k: 'join'; left: Plan; right: Plan; type: 'inner' | 'left' | 'right' | 'full' | 'cross'; on?: BExpr; cols: ColInfo[] }
  | { k: 'aggregate'; input: Plan; keys: BExpr[]; aggs: BExpr[]; cols: ColInfo[] }
  | { k: 'sort'; input: Plan; keys: { expr: BExpr; desc: boolean; nullsFirst: boolean }[]; cols: ColInfo[] }
  | { k: 'limit'; input: Plan; limit: number | null; offset: number; cols: ColInfo[] }
  | { k: 'distinct'; input: Plan; cols: ColInfo[] }
  | { k: 'setop'; op: 'union' | 'intersect' | 'except'; all: boolean; inputs: Plan[]; cols: ColInfo[] };
