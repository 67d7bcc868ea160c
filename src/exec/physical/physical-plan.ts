// Physical plan nodes: which operator runs each part of a logical plan, decided once by the named
// rules in ./rules (applied in a fixed order by plan-physical.ts); build.ts only turns them into operators.

import type { BExpr, Plan, ScanPlan } from '../../plan/bound.ts';
import type { ProjectAggPlan } from './rules/project-aggregate-from-runs.ts';

export type RuleName =
  | 'ProjectScanByTimeRange'
  | 'TopNByTimeFromSortedSegments'
  | 'LimitHintToScan'
  | 'HotUnnestFromDictionary'
  | 'DictionaryPredicateFilter'
  | 'HotBucketAggregate'
  | 'HashJoinOnEquiKeys'
  | 'BucketAggregateFromCache'
  | 'CountFromRunIndex'
  | 'BucketCountFromTimestamps'
  | 'ProjectAggregateFromRuns'
  /** Logical (src/plan/prune-columns.ts): named on the projections it narrowed. */
  | 'PruneUnusedColumns';

type Logical<K extends Plan['k']> = Extract<Plan, { k: K }>;
export type UnnestPlan = Logical<'unnest'>;
export type AggregatePlan = Logical<'aggregate'>;

/** A JOIN UNNEST chain over a scan, read through hot (dictionary) columns only. */
export interface HotChainPlan {
  scan: ScanPlan;
  /** Project column id → scan column id, for a projection of plain scan columns below the chain. */
  alias: ReadonlyMap<number, number>;
  /** The unnests, bottom first. */
  chain: UnnestPlan[];
  /** Scan column the first unnest expands. */
  firstId: number;
  /** Record field each further unnest expands, bottom first. */
  fields: string[];
  /** Leaf field names read on the last element, and their hot keys (`metadata.request.path`). */
  leaves: string[];
  keys: string[];
}

/**
 * A filter fused into a hot chain; `memoLeaf` set when the predicate reads one leaf only
 * (DictionaryPredicateFilter). Its memo key is made when the run builds it (dictionaryMemoKey), from the
 * predicate with the run's values in: the plan holds no value, so one plan serves every value.
 */
export interface HotFilterPlan {
  pred: BExpr;
  memoLeaf: number | null;
}

/** A counter of HotBucketAggregate; its memo key, like a fused filter's, is made at run time. */
export interface HotCounterPlan {
  kind: 'count' | 'countif';
  arg: BExpr | null;
  leaf: number;
}

/**
 * The bucket cache's per-minute partials, planned once with the plan: `plain` ([row count, each
 * aggregate] per minute) and `earliest` (the smallest counted timestamp too), both over `scan`, whose
 * bounds each fill sets at run time (ExecContext.scanBounds). Their output columns are `cols`.
 */
export interface PartialsPlan {
  scan: ScanPlan;
  plain: PhysicalNode;
  earliest: PhysicalNode;
  cols: { plain: readonly number[]; earliest: readonly number[] };
}

interface Base {
  /** Named rules that chose this node, in the order they fired. */
  rules: RuleName[];
}

export type PhysicalNode = Base & (
  | { op: 'Scan'; scan: ScanPlan; batchHint: number | null }
  | { op: 'Values'; logical: Logical<'values'> }
  | { op: 'Rows'; logical: Logical<'rows'> }
  | { op: 'Filter'; logical: Logical<'filter'>; input: PhysicalNode }
  | { op: 'Project'; logical: Logical<'project'>; input: PhysicalNode }
  | { op: 'Unnest'; logical: UnnestPlan; input: PhysicalNode }
  | { op: 'HotUnnest'; logical: UnnestPlan; hot: HotChainPlan; filter: HotFilterPlan | null }
  | { op: 'Join'; logical: Logical<'join'>; left: PhysicalNode; right: PhysicalNode; equi: { left: BExpr; right: BExpr } | null }
  | { op: 'Aggregate'; logical: AggregatePlan; input: PhysicalNode }
  | { op: 'HotBucketAggregate'; logical: AggregatePlan; unit: string; hot: Extract<PhysicalNode, { op: 'HotUnnest' }>; counters: HotCounterPlan[] }
  /** `partials`: how the cache computes the per-minute partials it folds in (printed by EXPLAIN). */
  | { op: 'BucketAggregateFromCache'; logical: AggregatePlan; unit: string; scan: ScanPlan; partials: PhysicalNode; fill: PartialsPlan }
  /** COUNT(*)s with no GROUP BY, counted by the store over `scan`'s rows without reading them. */
  | { op: 'CountRows'; logical: AggregatePlan; scan: ScanPlan }
  | { op: 'BucketCount'; logical: AggregatePlan; scan: ScanPlan; unit: string }
  /** GROUP BY project with COUNT/MIN/MAX of timestamp or project, from the segments' columns (rule ProjectAggregateFromRuns). */
  | { op: 'ProjectAggregate'; logical: AggregatePlan; scan: ScanPlan; aggs: ProjectAggPlan[] }
  | { op: 'Sort'; logical: Logical<'sort'>; input: PhysicalNode }
  | { op: 'Limit'; logical: Logical<'limit'>; input: PhysicalNode }
  | { op: 'Distinct'; logical: Logical<'distinct'>; input: PhysicalNode }
  | { op: 'SetOp'; logical: Logical<'setop'>; inputs: PhysicalNode[] }
);

/** A physical plan: its root, the logical plan it came from, and the physical plan of each subquery. */
export interface PhysicalPlan {
  root: PhysicalNode;
  logical: Plan;
  subqueries: ReadonlyMap<Plan, PhysicalNode>;
}
