// Logical plans of small queries over the fixture store, and a finder for one node kind, for the
// physical rule tests.

import { planSqlOnCatalog } from '../../src/endpoints/query-sql.ts';
import { catalogFromStore } from '../../src/endpoints/store-catalog.ts';
import { explainPhysical } from '../../src/exec/physical/explain-physical.ts';
import type { PhysicalOptions } from '../../src/exec/physical/plan-physical.ts';
import type { Plan } from '../../src/plan/bound.ts';
import { children } from '../../src/plan/explain.ts';
import { fixtureStore, FIXTURE_NOW } from '../helpers/fixture-store.ts';

const catalog = catalogFromStore(fixtureStore());

export function logical(sql: string): Plan {
  return planSqlOnCatalog(catalog, sql, { nowUs: FIXTURE_NOW }).logical;
}

export function physicalText(sql: string, physical: PhysicalOptions = {}): string {
  return explainPhysical(planSqlOnCatalog(catalog, sql, { nowUs: FIXTURE_NOW, physical }).physical);
}

/** The first node of kind `k` in a depth-first walk. */
export function find<K extends Plan['k']>(p: Plan, k: K): Extract<Plan, { k: K }> {
  if (p.k === k) return p as Extract<Plan, { k: K }>;
  for (const c of children(p)) {
    try { return find(c, k); } catch { /* not in this branch */ }
  }
  throw new Error(`no ${k} node`);
}

export const EDGE_CHAIN = 'from `edge.logs.prod` t left join unnest(t.metadata) as m on true left join unnest(m.request) as r on true';
