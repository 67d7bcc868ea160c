// Rule BucketAggregateFromCache: a time-bucket aggregation over one source (TIMESTAMP_TRUNC(timestamp,
// MINUTE|HOUR|DAY) key; COUNT/COUNTIF of row-wise expressions) is answered from the bucket cache's
// per-minute partials. Applied only when the caller runs the plan through the bucket cache.

import type { BExpr, ColInfo, Plan, ScanPlan } from '../../../plan/bound.ts';
import { aggregateFunction, scalarFunction } from '../../../fn/index.ts';
import { someNode } from '../../../plan/expr-walk.ts';
import { originOf } from '../../../plan/origin-of.ts';
import type { AggregatePlan, PartialsPlan, PhysicalNode, PhysicalPlan } from '../physical-plan.ts';

const UNITS = new Set(['MINUTE', 'HOUR', 'DAY']);
// Counts add up exactly across minutes; SUM is left out because an all-NULL SUM is NULL, not 0.
const DECOMPOSABLE = new Set(['COUNT', 'COUNTIF']);

export interface BucketShape {
  agg: AggregatePlan;
  scan: ScanPlan;
  unit: string;
  /** The TIMESTAMP_TRUNC argument (the scan's timestamp column). */
  ts: BExpr;
  /** The partials as planned with the physical plan (absent: planned when filled). */
  fill?: PartialsPlan;
}

/** Finds the first time-bucket aggregation the bucket cache can keep, or null (then the plan runs normally). */
export function findBucketAggregate(plan: Plan): BucketShape | null {
  if (plan.k === 'aggregate') {
    const s = bucketAggregateFromCache(plan);
    if (s) return s;
  }
  const kids = plan.k === 'join' ? [plan.left, plan.right] : plan.k === 'setop' ? plan.inputs : 'input' in plan ? [plan.input] : [];
  for (const k of kids) {
    const s = findBucketAggregate(k);
    if (s) return s;
  }
  return null;
}

/** The shape the bucket cache keeps for `agg`, or null when the rule does not apply. */
export function bucketAggregateFromCache(agg: AggregatePlan): BucketShape | null {
  if (agg.keys.length !== 1) return null;
  const key = agg.keys[0]!;
  if (key.k !== 'call' || key.fn.name !== 'TIMESTAMP_TRUNC' || key.args.length !== 2) return null;
  const [ts, unit] = key.args as [BExpr, BExpr];
  if (unit.k !== 'const' || typeof unit.value !== 'string' || !UNITS.has(unit.value)) return null;
  const o = originOf(ts);
  if (!o || o.element || o.path.length !== 1 || o.path[0] !== 'timestamp') return null;
  for (const a of agg.aggs) {
    if (a.k !== 'agg' || a.distinct || !DECOMPOSABLE.has(a.agg.name)) return null;
  }
  if (!rowWise(agg.input, o.scan)) return null;
  return { agg, scan: o.scan, unit: unit.value, ts };
}

/** The input is the scan under filters, unnests and projections only, with no subqueries. */
function rowWise(p: Plan, scan: ScanPlan): boolean {
  const noSub = (e: BExpr) => !someNode(e, (x) => x.k === 'subquery');
  switch (p.k) {
    case 'scan': return p === scan;
    case 'filter': return noSub(p.pred) && rowWise(p.input, scan);
    case 'unnest': return noSub(p.array) && rowWise(p.input, scan);
    case 'project': return p.exprs.every(noSub) && rowWise(p.input, scan);
    default: return false;
  }
}

/** The aggregation a physical plan answers from the bucket cache (BucketAggregateFromCache), if any. */
export function cachedAggregate(plan: PhysicalPlan): BucketShape | null {
  const find = (n: PhysicalNode): BucketShape | null => {
    if (n.op === 'BucketAggregateFromCache') {
      const shape = bucketAggregateFromCache(n.logical);
      return shape && { ...shape, fill: n.fill };
    }
    const kids = n.op === 'Join' ? [n.left, n.right] : n.op === 'SetOp' ? n.inputs : 'input' in n ? [n.input] : [];
    for (const k of kids) {
      const s = find(k);
      if (s) return s;
    }
    return null;
  };
  return find(plan.root);
}

/**
 * The aggregation the bucket cache runs to fill its per-minute partials over `scan` (the shape's scan
 * with other bounds): per minute, [row count, each aggregate], and with `earliest` the smallest counted timestamp last.
 */
export function minutePartialsPlan(shape: BucketShape, scan: ScanPlan, earliest = false): Extract<Plan, { k: 'aggregate' }> {
  const { agg, ts } = shape;
  const trunc = scalarFunction('TIMESTAMP_TRUNC')!;
  const count = aggregateFunction('COUNT')!;
  const key: BExpr = { k: 'call', fn: trunc, args: [ts, { k: 'const', value: 'MINUTE', type: 'STRING' }], type: 'TIMESTAMP', safe: false };
  const aggs: BExpr[] = [{ k: 'agg', agg: count, args: [], distinct: false, star: true, type: 'INT64' }, ...agg.aggs];
  if (earliest) aggs.push({ k: 'agg', agg: aggregateFunction('MIN')!, args: [ts], distinct: false, star: false, type: 'TIMESTAMP' });
  const cols: ColInfo[] = [key, ...aggs].map((_, i) => ({ id: -1_000_000 - i, name: `$p${i}`, type: 'INT64' }));
  return { k: 'aggregate', input: withScan(agg.input, shape.scan, scan.order === 'any' ? scan : { ...scan, order: 'any' }), keys: [key], aggs, cols };
}

/** Copies the row-wise input with its scan replaced. */
function withScan(p: Plan, scan: ScanPlan, replacement: ScanPlan): Plan {
  if (p === scan) return replacement;
  if (p.k === 'filter' || p.k === 'unnest' || p.k === 'project') return { ...p, input: withScan(p.input, scan, replacement) } as Plan;
  throw new Error('internal: bucket-cache input is not row-wise');
}
