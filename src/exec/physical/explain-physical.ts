// EXPLAIN of a physical plan: one operator a line, indented by depth, with the named rules that chose
// it in brackets. Stable text for goldens (no ids; timestamps as ISO strings, through the logical EXPLAIN).

import { expr, explainPlan } from '../../plan/explain.ts';
import { formatTimestamp } from '../../core/time.ts';
import type { ScanPlan } from '../../plan/bound.ts';
import type { PhysicalNode, PhysicalPlan } from './physical-plan.ts';

export function explainPhysical(plan: PhysicalPlan): string {
  const lines: string[] = [];
  const walk = (n: PhysicalNode, depth: number): void => {
    const rules = n.rules.length ? `  [${n.rules.join(', ')}]` : '';
    lines.push('  '.repeat(depth) + describe(n) + rules);
    for (const c of inputs(n)) walk(c, depth + 1);
  };
  walk(plan.root, 0);
  return lines.join('\n');
}

/** Both plans, as `EXPLAIN` and `ringql query --explain` print them. */
export function explainBoth(plan: PhysicalPlan): string {
  return `Logical plan:\n${explainPlan(plan.logical)}\nPhysical plan:\n${explainPhysical(plan)}`;
}

function inputs(n: PhysicalNode): PhysicalNode[] {
  switch (n.op) {
    case 'Scan': case 'Values': case 'Rows': case 'HotUnnest': case 'CountRows': case 'BucketCount': case 'ProjectAggregate': return [];
    case 'BucketAggregateFromCache': return [n.partials];
    case 'HotBucketAggregate': return [n.hot];
    case 'Join': return [n.left, n.right];
    case 'SetOp': return n.inputs;
    default: return [n.input];
  }
}

function describe(n: PhysicalNode): string {
  switch (n.op) {
    case 'Scan': return `Scan ${scanText(n.scan)}${n.batchHint === null ? '' : ` rows<=${n.batchHint}`}`;
    case 'Values': return `Values rows=${n.logical.rows.length}`;
    case 'Rows': return `Rows ${n.logical.note} rows=${n.logical.rows.length}`;
    case 'Filter': return `Filter ${expr(n.logical.pred)}`;
    case 'Project': return `Project ${n.logical.cols.map((c) => c.name).join(', ')}`;
    case 'Unnest': return `${n.logical.outer ? 'LeftUnnest' : 'Unnest'} ${expr(n.logical.array)} AS ${n.logical.col.name}`;
    case 'HotUnnest': {
      const h = n.hot;
      const chain = h.chain.map((u) => `${u.outer ? 'left ' : ''}${u.col.name}`).join(' > ');
      const filter = n.filter ? ` filter=${expr(n.filter.pred)}${n.filter.memoLeaf === null ? '' : ` memo=${h.leaves[n.filter.memoLeaf]}`}` : '';
      return `HotUnnest ${chain} keys=[${h.keys.join(', ')}]${filter} over Scan ${scanText(h.scan)}`;
    }
    case 'Join': return `${n.equi ? 'HashJoin' : 'NestedLoopJoin'} ${n.logical.type}${n.equi ? ` keys=${expr(n.equi.left)} = ${expr(n.equi.right)}` : n.logical.on ? ' ON ' + expr(n.logical.on) : ''}`;
    case 'Aggregate': return `HashAggregate keys=[${n.logical.keys.map(expr).join(', ')}] aggs=[${n.logical.aggs.map(expr).join(', ')}]`;
    case 'HotBucketAggregate': return `HotBucketAggregate unit=${n.unit} counters=[${n.counters.map((c) => c.arg === null ? 'COUNT(*)' : `${c.kind.toUpperCase()}(${expr(c.arg)})`).join(', ')}]`;
    case 'BucketAggregateFromCache': return `BucketAggregateFromCache unit=${n.unit} aggs=[${n.logical.aggs.map(expr).join(', ')}] over Scan ${scanText(n.scan)}`;
    case 'BucketCount': return `BucketCount unit=${n.unit} aggs=[${n.logical.aggs.map(expr).join(', ')}] over Scan ${scanText(n.scan)}`;
    case 'ProjectAggregate': return `ProjectAggregate keys=[${n.logical.keys.map(expr).join(', ')}] aggs=[${n.logical.aggs.map(expr).join(', ')}] over Scan ${scanText(n.scan)}`;
    case 'CountRows': return `CountRows aggs=[${n.logical.aggs.map(expr).join(', ')}] over Scan ${scanText(n.scan)}`;
    case 'Sort': return `Sort ${n.logical.keys.map((k) => expr(k.expr) + (k.desc ? ' DESC' : ' ASC')).join(', ')}`;
    case 'Limit': return `Limit ${n.logical.limit ?? 'ALL'}${n.logical.offset ? ' OFFSET ' + n.logical.offset : ''}`;
    case 'Distinct': return 'HashDistinct';
    case 'SetOp': return `${n.logical.op.toUpperCase()} ${n.logical.all ? 'ALL' : 'DISTINCT'}`;
  }
}

function scanText(s: ScanPlan): string {
  const parts = [s.source.def.name + (s.alias !== s.source.def.name ? ' AS ' + s.alias : '')];
  if (s.project !== undefined) parts.push(`project=${JSON.stringify(s.project)}`);
  if (s.minTs !== undefined || s.maxTs !== undefined) {
    const lo = s.minTs === undefined ? '(-inf' : (s.minInclusive ? '[' : '(') + formatTimestamp(s.minTs);
    const hi = s.maxTs === undefined ? '+inf)' : formatTimestamp(s.maxTs) + (s.maxInclusive ? ']' : ')');
    parts.push(`time=${lo}, ${hi}`);
  }
  parts.push(`order=${s.order}`);
  return parts.join(' ');
}

/** The named rules that fired anywhere in the plan, each once, in plan order (root first). */
export function firedRules(plan: PhysicalPlan): string[] {
  const out = new Set<string>();
  const walk = (n: PhysicalNode): void => {
    for (const r of n.rules) out.add(r);
    for (const c of inputs(n)) walk(c);
  };
  walk(plan.root);
  return [...out];
}
