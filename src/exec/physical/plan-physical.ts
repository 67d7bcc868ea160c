// Logical plan → physical plan. At each node the named rules are tried in a fixed order:
// BucketAggregateFromCache (only when asked), CountFromRunIndex, BucketCountFromTimestamps, ProjectAggregateFromRuns, HotBucketAggregate, HotUnnestFromDictionary (with
// DictionaryPredicateFilter for a filter fused into it), HashJoinOnEquiKeys, then at scans
// ProjectScanByTimeRange, TopNByTimeFromSortedSegments and LimitHintToScan. Nothing is decided later.

import type { BExpr, Plan, ScanPlan } from '../../plan/bound.ts';
import { someNode } from '../../plan/expr-walk.ts';
import { engineCounters } from '../../core/engine-counters.ts';
import { columnUses, type ColumnUses } from '../column-uses.ts';
import type { PartialsPlan, PhysicalNode, PhysicalPlan, RuleName } from './physical-plan.ts';
import { derivedScan } from '../../plan/rules.ts';
import { prunedProjection } from '../../plan/prune-columns.ts';
import { hotUnnestFromDictionary } from './rules/hot-unnest-from-dictionary.ts';
import { dictionaryPredicateFilter } from './rules/dictionary-predicate-filter.ts';
import { hotBucketAggregate } from './rules/hot-bucket-aggregate.ts';
import { hashJoinOnEquiKeys } from './rules/hash-join-on-equi-keys.ts';
import { projectScanByTimeRange } from './rules/project-scan-by-time-range.ts';
import { topNByTimeFromSortedSegments } from './rules/top-n-by-time-from-sorted-segments.ts';
import { limitHintToScan } from './rules/limit-hint-to-scan.ts';
import { countFromRunIndex } from './rules/count-from-run-index.ts';
import { projectAggregateFromRuns } from './rules/project-aggregate-from-runs.ts';
import { bucketCountFromTimestamps } from './rules/bucket-count-from-timestamps.ts';
import { findBucketAggregate, minutePartialsPlan, type BucketShape } from './rules/bucket-aggregate-from-cache.ts';

export interface PhysicalOptions {
  /** Rows the consumer reads at most (the endpoint's row cap + 1); null = all. */
  limitHint?: number | null;
  /** Answer the first time-bucket aggregation from the bucket cache (BucketAggregateFromCache). */
  bucketCache?: boolean;
}

/** Chooses the operator of every node of `plan` (and of each subquery in it). */
export function planPhysical(plan: Plan, opts: PhysicalOptions = {}): PhysicalPlan {
  engineCounters.physicalPlans++;
  const uses = columnUses(plan);
  const cached = opts.bucketCache ? findBucketAggregate(plan) : null;
  const subqueries = new Map<Plan, PhysicalNode>();
  const planner = new Planner(uses, cached, subqueries);
  const root = planner.node(plan, opts.limitHint ?? null);
  return { root, logical: plan, subqueries };
}

class Planner {
  constructor(private readonly uses: ColumnUses, private readonly cached: BucketShape | null, private readonly subqueries: Map<Plan, PhysicalNode>) {}

  node(p: Plan, hint: number | null): PhysicalNode {
    this.noteSubqueries(p);
    switch (p.k) {
      case 'scan': return this.scan(p, hint);
      case 'values': return { op: 'Values', logical: p, rules: [] };
      case 'rows': return { op: 'Rows', logical: p, rules: [] };
      case 'filter': {
        const hot = p.input.k === 'unnest' ? hotUnnestFromDictionary(p.input, this.uses) : null;
        if (hot && p.input.k === 'unnest') {
          const filter = dictionaryPredicateFilter(p.pred, p.input, hot);
          const rules: RuleName[] = filter.memoLeaf === null ? ['HotUnnestFromDictionary'] : ['HotUnnestFromDictionary', 'DictionaryPredicateFilter'];
          return { op: 'HotUnnest', logical: p.input, hot, filter, rules };
        }
        return { op: 'Filter', logical: p, input: this.node(p.input, null), rules: [] };
      }
      case 'project': return { op: 'Project', logical: p, input: this.node(p.input, hint), rules: prunedProjection(p) ? ['PruneUnusedColumns'] : [] };
      case 'unnest': {
        const hot = hotUnnestFromDictionary(p, this.uses);
        if (hot) return { op: 'HotUnnest', logical: p, hot, filter: null, rules: ['HotUnnestFromDictionary'] };
        return { op: 'Unnest', logical: p, input: this.node(p.input, null), rules: [] };
      }
      case 'join': {
        const equi = hashJoinOnEquiKeys(p);
        return { op: 'Join', logical: p, left: this.node(p.left, null), right: this.node(p.right, null), equi, rules: equi ? ['HashJoinOnEquiKeys'] : [] };
      }
      case 'aggregate': return this.aggregate(p);
      case 'sort': return { op: 'Sort', logical: p, input: this.node(p.input, null), rules: [] };
      case 'limit': {
        const h = p.limit === null ? null : p.limit + p.offset;
        return { op: 'Limit', logical: p, input: this.node(p.input, h), rules: [] };
      }
      case 'distinct': return { op: 'Distinct', logical: p, input: this.node(p.input, null), rules: [] };
      case 'setop': return { op: 'SetOp', logical: p, inputs: p.inputs.map((x) => this.node(x, null)), rules: [] };
    }
  }

  private aggregate(p: Extract<Plan, { k: 'aggregate' }>): PhysicalNode {
    const c = this.cached;
    if (c && p === c.agg) {
      const fill = partialsPlan(c);
      return { op: 'BucketAggregateFromCache', logical: p, unit: c.unit, scan: c.scan, partials: fill.plain, fill, rules: ['BucketAggregateFromCache'] };
    }
    const counted = countFromRunIndex(p);
    if (counted) return { op: 'CountRows', logical: p, scan: counted, rules: ['CountFromRunIndex'] };
    const buckets = bucketCountFromTimestamps(p);
    if (buckets) return { op: 'BucketCount', logical: p, scan: buckets.scan, unit: buckets.unit, rules: ['BucketCountFromTimestamps'] };
    const byProject = projectAggregateFromRuns(p);
    if (byProject) return { op: 'ProjectAggregate', logical: p, scan: byProject.scan, aggs: byProject.aggs, rules: ['ProjectAggregateFromRuns'] };
    const hot = hotBucketAggregate(p, this.uses);
    if (hot) {
      this.noteSubqueries(p.input);
      const rules: RuleName[] = ['HotUnnestFromDictionary'];
      if (hot.filter?.memoLeaf !== null && hot.filter?.memoLeaf !== undefined) rules.push('DictionaryPredicateFilter');
      const input = { op: 'HotUnnest' as const, logical: hot.top, hot: hot.hot, filter: hot.filter, rules };
      return { op: 'HotBucketAggregate', logical: p, unit: hot.unit, hot: input, counters: hot.counters, rules: ['HotBucketAggregate'] };
    }
    return { op: 'Aggregate', logical: p, input: this.node(p.input, null), rules: [] };
  }

  private scan(scan: ScanPlan, hint: number | null): PhysicalNode {
    const rules: RuleName[] = [];
    if (projectScanByTimeRange(scan)) rules.push('ProjectScanByTimeRange');
    if (topNByTimeFromSortedSegments(scan, hint)) rules.push('TopNByTimeFromSortedSegments');
    if (limitHintToScan(scan, hint)) rules.push('LimitHintToScan');
    return { op: 'Scan', scan, batchHint: hint, rules };
  }

  /** Plans every subquery of the node's own expressions (exists: 1 row, scalar: 2 rows are enough). */
  private noteSubqueries(p: Plan): void {
    for (const e of nodeExprs(p)) {
      someNode(e, (x) => {
        if (x.k === 'subquery' && !this.subqueries.has(x.plan)) {
          this.subqueries.set(x.plan, this.node(x.plan, x.mode === 'exists' ? 1 : x.mode === 'scalar' ? 2 : null));
        }
        return false;
      });
    }
  }
}

/**
 * The bucket cache's partials of `shape`, planned now so that filling them at run time plans nothing:
 * over one unordered copy of the shape's scan (its pushdown kept, so putting values in sets its bounds).
 */
function partialsPlan(shape: BucketShape): PartialsPlan {
  const scan = derivedScan(shape.scan, { order: 'any' });
  const plan = (earliest: boolean) => {
    const partial = minutePartialsPlan(shape, scan, earliest);
    return { node: new Planner(columnUses(partial), null, new Map()).node(partial, null), cols: partial.cols.map((c) => c.id) };
  };
  const plain = plan(false), earliest = plan(true);
  return { scan, plain: plain.node, earliest: earliest.node, cols: { plain: plain.cols, earliest: earliest.cols } };
}

/** The expressions a logical node evaluates itself. */
export function nodeExprs(p: Plan): BExpr[] {
  switch (p.k) {
    case 'values': return p.rows.flat();
    case 'filter': return [p.pred];
    case 'project': return p.exprs;
    case 'unnest': return [p.array];
    case 'join': return p.on ? [p.on] : [];
    case 'aggregate': return [...p.keys, ...p.aggs];
    case 'sort': return p.keys.map((k) => k.expr);
    default: return [];
  }
}
