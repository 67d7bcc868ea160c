// Turns a physical plan into a tree of operators, compiling every expression against the accessors of
// the operator it reads from. Every choice was made by the physical planner's named rules; nothing is
// re-decided here. Uncorrelated subqueries run once, on first use.

import { RingqlError } from '../core/errors.ts';
import type { BExpr, Plan, ScanPlan } from '../plan/bound.ts';
import { compileExpr, type Accessor, type CompileEnv } from '../plan/compile-expr.ts';
import type { ExecContext } from './context.ts';
import type { Operator } from './operator.ts';
import { ScanExec } from './ops/scan-exec.ts';
import { HotUnnestExec } from './ops/hot-unnest-exec.ts';
import { HotBucketAggExec } from './ops/hot-bucket-agg-exec.ts';
import { FilterExec } from './ops/filter-exec.ts';
import { LimitExec } from './ops/limit-exec.ts';
import { ProjectExec } from './ops/project-exec.ts';
import { ValuesExec } from './ops/values-exec.ts';
import { UnnestExec } from './ops/unnest-exec.ts';
import { JoinExec } from './ops/join-exec.ts';
import { AggregateExec } from './ops/aggregate-exec.ts';
import { DistinctExec } from './ops/distinct-exec.ts';
import { SetOpExec } from './ops/set-op-exec.ts';
import { SortExec } from './ops/sort-exec.ts';
import { CountRowsExec } from './ops/count-rows-exec.ts';
import { BucketCountExec } from './ops/bucket-count-exec.ts';
import { ProjectAggExec } from './ops/project-agg-exec.ts';
import { groupKey, sqlEquals, type Value } from '../core/values.ts';
import { planPhysical } from './physical/plan-physical.ts';
import type { PhysicalNode, PhysicalPlan } from './physical/physical-plan.ts';
import { dictionaryMemoText } from './physical/rules/dictionary-predicate-filter.ts';

/** Plans `plan` physically (ad hoc: the bucket cache's partials, tests) and builds its operators. */
export function buildOperator(plan: Plan, ctx: ExecContext, limitHint: number | null = null): Operator {
  return buildPhysical(planPhysical(plan, { limitHint }), ctx);
}

/** Builds the operators of a physical plan. */
export function buildPhysical(plan: PhysicalPlan, ctx: ExecContext): Operator {
  return new Builder(plan.subqueries, ctx).build(plan.root);
}

/** Builds the operators of one planned node without subqueries (the bucket cache's prepared partials). */
export function buildNode(node: PhysicalNode, ctx: ExecContext): Operator {
  return new Builder(new Map(), ctx).build(node);
}

class Builder {
  constructor(private readonly subqueries: ReadonlyMap<Plan, PhysicalNode>, private readonly ctx: ExecContext) {}

  private env(op: Operator): CompileEnv {
    return { col: (id) => op.acc(id), subquery: (e, arg) => this.subquery(e, arg) };
  }

  private compileOn(op: Operator): (e: BExpr) => Accessor {
    return (e) => compileExpr(e, this.env(op));
  }

  build(n: PhysicalNode): Operator {
    const ctx = this.ctx;
    switch (n.op) {
      case 'Scan': return new ScanExec(this.scanOf(n.scan), ctx, n.batchHint);
      case 'Values': {
        const noInput = this.env(new ValuesExec([], []));
        const rows = n.logical.rows.map((r) => r.map((e) => compileExpr(e, noInput)(null)));
        return new ValuesExec(rows, n.logical.cols.map((c) => c.id));
      }
      case 'Rows': return new ValuesExec(n.logical.rows, n.logical.cols.map((c) => c.id));
      case 'Filter': {
        const input = this.build(n.input);
        return new FilterExec(input, this.compileOn(input)(n.logical.pred), ctx);
      }
      case 'Project': {
        const input = this.build(n.input);
        return new ProjectExec(input, n.logical.exprs, n.logical.cols.map((c) => c.id), this.compileOn(input), ctx);
      }
      case 'Unnest': {
        const input = this.build(n.input);
        const u = n.logical;
        return new UnnestExec(input, this.compileOn(input)(u.array), u.outer, u.col.id, u.offsetCol?.id ?? null, ctx);
      }
      case 'HotUnnest': return this.hotUnnest(n);
      case 'Join': return this.join(n);
      case 'Aggregate': {
        const input = this.build(n.input);
        const a = n.logical;
        return new AggregateExec(input, a.keys, a.aggs as Extract<BExpr, { k: 'agg' }>[], a.cols.map((c) => c.id), this.compileOn(input), ctx);
      }
      case 'CountRows': return new CountRowsExec(this.scanOf(n.scan), n.logical.cols.map((c) => c.id), ctx);
      case 'BucketCount': {
        // Counting needs no order: the scan reads storage order (column runs), the operator restores the groups' order.
        const scan = this.scanOf(n.scan);
        return new BucketCountExec(new ScanExec({ ...scan, order: 'any' }, ctx, null, [], true), scan.order, n.unit, n.logical.cols.map((c) => c.id), ctx);
      }
      case 'ProjectAggregate': return new ProjectAggExec(new ScanExec(this.scanOf(n.scan), ctx, null, [], true), n.aggs, n.logical.cols.map((c) => c.id), ctx);
      case 'HotBucketAggregate': {
        // Only selections are read (nextSelection): the scan hands over the segments' own columns.
        const hot = this.hotUnnest(n.hot, true);
        const c = this.compileOn(hot);
        // Memo keys come from the run's own expressions (its values in), not from the plan.
        const counters = n.counters.map((x) => ({ kind: x.kind, arg: x.arg === null ? null : c(x.arg), leaf: x.leaf, key: x.arg === null ? '*' : dictionaryMemoText(x.arg) }));
        return new HotBucketAggExec(hot, n.unit, c(n.logical.keys[0]!), counters, n.logical.cols.map((x) => x.id), ctx);
      }
      case 'BucketAggregateFromCache': {
        const rows = ctx.bucketRows?.get(n.logical);
        if (!rows) throw new Error('internal: BucketAggregateFromCache without the bucket cache\'s rows in the run context');
        return new ValuesExec(rows, n.logical.cols.map((c) => c.id));
      }
      case 'Sort': {
        const input = this.build(n.input);
        const c = this.compileOn(input);
        return new SortExec(input, n.logical.keys.map((k) => ({ acc: c(k.expr), desc: k.desc, nullsFirst: k.nullsFirst })), ctx);
      }
      case 'Limit': return new LimitExec(this.build(n.input), n.logical.limit, n.logical.offset);
      case 'Distinct': return new DistinctExec(this.build(n.input), n.logical.cols.map((c) => c.id), ctx);
      case 'SetOp': {
        const inputs = n.inputs.map((p, i) => {
          const op = this.build(p);
          return { op, accs: n.logical.inputs[i]!.cols.map((c) => op.acc(c.id)) };
        });
        return new SetOpExec(inputs, n.logical.op, n.logical.all, n.logical.cols.map((c) => c.id), ctx);
      }
    }
  }

  /** The scan as this run reads it: with the bounds the run context sets for it, if any. */
  private scanOf(scan: ScanPlan): ScanPlan {
    return this.ctx.scanBounds?.get(scan) ?? scan;
  }

  private hotUnnest(n: Extract<PhysicalNode, { op: 'HotUnnest' }>, asRuns = false): HotUnnestExec {
    const h = n.hot;
    const dict = h.scan.source.hotDict;
    if (!dict) throw new Error('internal: HotUnnestFromDictionary over a source without hot columns');
    const exec = new ScanExec(this.scanOf(h.scan), this.ctx, null, h.keys, asRuns);
    const hot = new HotUnnestExec(exec, h.alias, {
      first: exec.acc(h.firstId),
      fields: h.fields,
      elemIds: h.chain.map((u) => u.col.id),
      outer: h.chain.map((u) => u.outer),
      leaves: h.leaves.map((name, i) => ({ name, dict: dict(h.keys[i]!) })),
    }, this.ctx);
    if (n.filter) {
      const f = n.filter;
      hot.setFilter({ pred: this.compileOn(hot)(f.pred), memoLeaf: f.memoLeaf, memoKey: f.memoLeaf === null ? null : 'filter:' + dictionaryMemoText(f.pred) });
    }
    return hot;
  }

  private join(n: Extract<PhysicalNode, { op: 'Join' }>): Operator {
    const left = this.build(n.left);
    const right = this.build(n.right);
    const p = n.logical;
    const leftIds = p.left.cols.map((c) => c.id);
    const probe = new JoinExec(left, right, leftIds, p.type, null, null, this.ctx);
    const on = p.on ? compileExpr(p.on, this.env(probe)) : null;
    const equi = n.equi ? { left: compileExpr(n.equi.left, this.env(left)), right: compileExpr(n.equi.right, this.env(right)) } : null;
    return new JoinExec(left, right, leftIds, p.type, on, equi, this.ctx);
  }

  private subquery(e: Extract<BExpr, { k: 'subquery' }>, arg: Accessor | null): Accessor {
    // Built now, with the query's pipeline, so its scans read the same instant of the store.
    const planned = this.subqueries.get(e.plan);
    const op = planned ? this.build(planned) : buildOperator(e.plan, this.ctx, e.mode === 'exists' ? 1 : e.mode === 'scalar' ? 2 : null);
    return subqueryAccessor(e, op, arg, this.ctx);
  }
}

function subqueryAccessor(e: Extract<BExpr, { k: 'subquery' }>, op: Operator, arg: Accessor | null, ctx: ExecContext): Accessor {
  let values: Value[] | null = null;
  let failure: { err: unknown } | null = null;
  const first = e.plan.cols[0];
  if (first === undefined) throw new Error('internal: a subquery plan without a column');
  const col = op.acc(first.id);
  const out: Value[] = [];
  /** Pulls one batch; true once the values are known (or failed: the error waits for the first use). */
  const step = (): boolean => {
    if (values || failure) return true;
    try {
      const b = op.next();
      if (b === null) { values = out; return true; }
      for (const r of b) out.push(col(r));
      if ((e.mode === 'exists' && out.length) || (e.mode === 'scalar' && out.length > 1)) values = out;
      return values !== null;
    } catch (err) {
      failure = { err };
      return true;
    }
  };
  // The runner steps it before the main pipeline, with slicing; a use before that runs it to the end here.
  ctx.preloads.push({ step });
  const load = (): Value[] => {
    if (!values && !failure) ctx.meter.unsliced(() => { while (!step()); });
    if (failure) throw failure.err;
    return values!;
  };
  switch (e.mode) {
    case 'scalar':
      return () => {
        const v = load();
        if (v.length > 1) throw new RingqlError('query_error', 'Scalar subquery produced more than one element');
        return v.length ? v[0]! : null;
      };
    case 'exists':
      return () => load().length > 0;
    case 'array':
      return () => load();
    case 'in': return inSubquery(load, arg!, !!e.not);
  }
}

function inSubquery(load: () => Value[], arg: Accessor, not: boolean): Accessor {
  let set: Set<string> | null = null;
  let hasNull = false;
  return (r) => {
    const v = arg(r);
    if (!set) {
      set = new Set();
      for (const x of load()) { if (x === null) hasNull = true; else set.add(groupKey(x)); }
    }
    if (load().length === 0) return not;
    if (v === null) return null;
    if (set.has(groupKey(v))) return !not;
    // a kind mismatch (string vs number) is unknown, not false
    if (hasNull || load().some((x) => sqlEquals(v, x) === null)) return null;
    return not;
  };
}
