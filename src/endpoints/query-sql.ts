// Runs one plain (trusted) SQL query over a store to row objects: the engine's entry point for
// tests, the CLI's plain mode and the bucket-cache comparisons.

import type { Store } from '../store/store.ts';
import { Binder } from '../plan/binder.ts';
import { optimize } from '../plan/rules.ts';
import { explainPlan } from '../plan/explain.ts';
import type { Plan } from '../plan/bound.ts';
import { runToJson, runToRows } from '../exec/run.ts';
import type { Value } from '../core/values.ts';
import type { Budget } from '../exec/context.ts';
import { parseSavedQuery } from './prepare.ts';
import { catalogFromStore } from './store-catalog.ts';

export interface SqlOptions {
  params?: ReadonlyMap<string, string | null>;
  nowUs: number;
  /** Row and time budget (default: DEFAULT_BUDGET). */
  budget?: Budget;
}

export function planSql(store: Store, sql: string, opts: SqlOptions): Plan {
  const q = parseSavedQuery(sql);
  const binder = new Binder({ catalog: catalogFromStore(store), params: opts.params ?? new Map(), nowUs: opts.nowUs });
  return optimize(binder.bindTop(q));
}

export function querySql(store: Store, sql: string, opts: SqlOptions): Record<string, Value>[] {
  return runToRows(planSql(store, sql, opts), opts.budget);
}

export function querySqlJson(store: Store, sql: string, opts: SqlOptions): string {
  return runToJson(planSql(store, sql, opts), { maxRows: null, ...(opts.budget ? { budget: opts.budget } : {}) }).body.toString('utf8');
}

export function explainSql(store: Store, sql: string, opts: SqlOptions): string {
  return explainPlan(planSql(store, sql, opts));
}
