// Rule HotBucketAggregate: `GROUP BY TIMESTAMP_TRUNC(timestamp, MINUTE|HOUR|DAY|...)` with COUNT/COUNTIF
// counters whose arguments each read one hot leaf, over a (filtered) hot unnest chain, runs vectorised.

import type { BExpr } from '../../../plan/bound.ts';
import type { ColumnUses } from '../../column-uses.ts';
import { truncWidthUs } from '../../../core/date-parts.ts';
import type { AggregatePlan, HotChainPlan, HotCounterPlan, HotFilterPlan, UnnestPlan } from '../physical-plan.ts';
import { chainScanColumnName, hotUnnestFromDictionary } from './hot-unnest-from-dictionary.ts';
import { dictionaryPredicateFilter, memoLeaf } from './dictionary-predicate-filter.ts';

export interface HotBucketChoice {
  unit: string;
  top: UnnestPlan;
  hot: HotChainPlan;
  filter: HotFilterPlan | null;
  counters: HotCounterPlan[];
}

/** The vectorised bucket aggregation for `plan`, or null when the rule does not apply. */
export function hotBucketAggregate(plan: AggregatePlan, uses: ColumnUses): HotBucketChoice | null {
  const unit = fixedTruncUnit(plan);
  if (!unit) return null;
  const filter = plan.input.k === 'filter' ? plan.input : null;
  const top = filter ? filter.input : plan.input;
  if (top.k !== 'unnest' || !plan.aggs.every(isCounter)) return null;
  const hot = hotUnnestFromDictionary(top, uses);
  const ts = (plan.keys[0] as Extract<BExpr, { k: 'call' }>).args[0] as Extract<BExpr, { k: 'col' }>;
  if (!hot || chainScanColumnName(hot, ts.id) !== 'timestamp') return null;
  const counters: HotCounterPlan[] = [];
  for (const a of plan.aggs as Extract<BExpr, { k: 'agg' }>[]) {
    const kind = a.agg.name.toUpperCase() === 'COUNTIF' ? 'countif' : 'count';
    if (a.star || !a.args.length) { counters.push({ kind, arg: null, leaf: -1 }); continue; }
    const leaf = memoLeaf(a.args[0]!, top, hot);
    if (leaf === null) return null;
    counters.push({ kind, arg: a.args[0]!, leaf });
  }
  return { unit, top, hot, filter: filter ? dictionaryPredicateFilter(filter.pred, top, hot) : null, counters };
}

/** The unit of a single `TIMESTAMP_TRUNC(column, fixed unit)` key, else null. */
export function fixedTruncUnit(plan: AggregatePlan): string | null {
  if (plan.keys.length !== 1) return null;
  const key = plan.keys[0]!;
  if (key.k !== 'call' || key.fn.name.toUpperCase() !== 'TIMESTAMP_TRUNC' || key.args.length !== 2) return null;
  const [tsArg, unitArg] = key.args as [BExpr, BExpr];
  if (tsArg.k !== 'col' || unitArg.k !== 'const' || typeof unitArg.value !== 'string') return null;
  const unit = unitArg.value.toUpperCase();
  return truncWidthUs(unit) === undefined ? null : unit;
}

function isCounter(a: BExpr): boolean {
  if (a.k !== 'agg' || a.distinct) return false;
  const name = a.agg.name.toUpperCase();
  return (name === 'COUNT' && (a.star || a.args.length === 1)) || (name === 'COUNTIF' && a.args.length === 1);
}
