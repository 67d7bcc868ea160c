// Runs one plain (trusted) SQL query over a store to row objects: the engine's entry point for
// tests, the CLI's plain mode and the bucket-cache comparisons. `EXPLAIN <query>` prints both plans.

import type { Store } from '../store/store.ts';
import type { Plan } from '../plan/bound.ts';
import type { Catalog } from '../plan/catalog.ts';
import { runToJson, runToRows } from '../exec/run.ts';
import type { Value } from '../core/values.ts';
import type { Budget } from '../exec/context.ts';
import { explainBoth } from '../exec/physical/explain-physical.ts';
import type { PhysicalOptions } from '../exec/physical/plan-physical.ts';
import { planOnce, type Instance } from '../engine/engine.ts';
import { parseSavedQuery } from './prepare.ts';
import { catalogFromStore } from './store-catalog.ts';

export interface SqlOptions {
  params?: ReadonlyMap<string, string | null>;
  nowUs: number;
  /** Row and time budget (default: DEFAULT_BUDGET). */
  budget?: Budget;
  /** Physical planning choices (row cap hint, bucket cache); default: none. */
  physical?: PhysicalOptions;
}

/** The text after a leading `EXPLAIN` keyword, or null when the text does not start with one. */
export function explainTarget(sql: string): string | null {
  const m = /^\s*EXPLAIN\s+/i.exec(sql);
  return m ? sql.slice(m[0].length) : null;
}

/** Parses, binds, plans and physically plans a plain query (the full ad-hoc path, nothing kept). */
export function planSqlOnCatalog(catalog: Catalog, sql: string, opts: SqlOptions): Instance {
  return planOnce(parseSavedQuery(sql), catalog, opts.params ?? new Map(), opts.nowUs, opts.physical);
}

export function planSql(store: Store, sql: string, opts: SqlOptions): Plan {
  return planSqlOnCatalog(catalogFromStore(store), sql, opts).logical;
}

export function querySql(store: Store, sql: string, opts: SqlOptions): Record<string, Value>[] {
  return runToRows(planSql(store, sql, opts), opts.budget);
}

export function querySqlJson(store: Store, sql: string, opts: SqlOptions): string {
  return runToJson(planSqlOnCatalog(catalogFromStore(store), sql, opts).physical, { maxRows: null, ...(opts.budget ? { budget: opts.budget } : {}) }).body.toString('utf8');
}

/** `EXPLAIN <query>` (or a bare query): both plans. */
export function explainSqlBoth(catalog: Catalog, sql: string, opts: SqlOptions): string {
  return explainBoth(planSqlOnCatalog(catalog, explainTarget(sql) ?? sql, opts).physical);
}
