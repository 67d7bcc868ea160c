// Rule DictionaryPredicateFilter: a predicate over a hot chain that reads nothing but one leaf of the
// last element (e.g. REGEXP_CONTAINS(request.url, @project)) is evaluated once per dictionary value.
// The plan keeps no value: the memo's key is made when a run builds the filter, from its predicate.

import type { BExpr } from '../../../plan/bound.ts';
import { exprKey } from '../../../plan/expr-key.ts';
import { columnIds, mapChildren } from '../../../plan/expr-walk.ts';
import type { HotChainPlan, HotFilterPlan, UnnestPlan } from '../physical-plan.ts';

/** Canonical text of an expression over the chain's last element only, the same in every query. */
export const leafKey = (e: BExpr): string => exprKey(e, () => '$leaf');

const memoTexts = new WeakMap<BExpr, string>();

/**
 * The text a predicate's per-dictionary memo is keyed by, made when a run builds the operator: its
 * canonical text with the run's values in (the pattern), so equal predicates share one memo across
 * queries and runs. Kept per predicate object (a kept plan makes it once).
 */
export function dictionaryMemoText(pred: BExpr): string {
  let key = memoTexts.get(pred);
  if (key === undefined) memoTexts.set(pred, (key = leafKey(pred)));
  return key;
}

/** The fused filter for `pred`; memoised per dictionary value when the rule applies. */
export function dictionaryPredicateFilter(pred: BExpr, top: UnnestPlan, hot: HotChainPlan): HotFilterPlan {
  return { pred, memoLeaf: memoLeaf(pred, top, hot) };
}

/** The leaf index when `e` reads nothing but one leaf of the chain's last element, else null. */
export function memoLeaf(e: BExpr, top: UnnestPlan, hot: HotChainPlan): number | null {
  const ids = columnIds(e);
  if (ids.size !== 1 || !ids.has(top.col.id)) return null;
  const names = new Set<string>();
  let whole = false;
  const walk = (x: BExpr): void => {
    if (x.k === 'field' && x.base.k === 'col') { names.add(x.name); return; }
    if (x.k === 'col' || x.k === 'subquery') { whole = true; return; }
    mapChildren(x, (c) => { walk(c); return c; });
  };
  walk(e);
  if (whole || names.size !== 1) return null;
  const i = hot.leaves.indexOf([...names][0]!);
  return i < 0 ? null : i;
}
