// Turns a logical plan into a tree of physical operators, compiling every expression against the
// accessors of the operator it reads from. Uncorrelated subqueries run once, on first use.

import { truncWidthUs } from '../core/date-parts.ts';
import { RingqlError } from '../core/errors.ts';
import type { BExpr, Plan } from '../plan/bound.ts';
import { compileExpr, type Accessor, type CompileEnv } from '../plan/compile-expr.ts';
import { columnIds, exprKey, mapChildren } from '../plan/expr-util.ts';
import type { ExecContext } from './context.ts';
import type { Operator } from './operator.ts';
import { ScanExec } from './ops/scan-exec.ts';
import { HotUnnestExec, type HotFilter } from './ops/hot-unnest-exec.ts';
import { HotBucketAggExec, type HotCounter } from './ops/hot-bucket-agg-exec.ts';
import { columnUses, type ColumnUses } from './column-uses.ts';
import { FilterExec, LimitExec, ProjectExec, ValuesExec } from './ops/row-ops.ts';
import { UnnestExec } from './ops/unnest-exec.ts';
import { JoinExec, type EquiKeys } from './ops/join-exec.ts';
import { AggregateExec } from './ops/aggregate-exec.ts';
import { DistinctExec, SetOpExec, SortExec } from './ops/set-ops.ts';
import { groupKey, sqlEquals, type Value } from '../core/values.ts';
import type { HotValue } from '../store/hot-paths.ts';

export function buildOperator(plan: Plan, ctx: ExecContext, limitHint: number | null = null, uses: ColumnUses = columnUses(plan)): Operator {
  const env = (op: Operator): CompileEnv => ({
    col: (id) => op.acc(id),
    subquery: (e, arg) => compileSubquery(e, arg, ctx),
  });
  const compileOn = (op: Operator) => (e: BExpr): Accessor => compileExpr(e, env(op));

  switch (plan.k) {
    case 'scan':
      return new ScanExec(plan, ctx, limitHint);
    case 'values': {
      const noInput = env(new ValuesExec([], []));
      const rows = plan.rows.map((r) => r.map((e) => compileExpr(e, noInput)(null)));
      return new ValuesExec(rows, plan.cols.map((c) => c.id));
    }
    case 'rows':
      return new ValuesExec(plan.rows, plan.cols.map((c) => c.id));
    case 'filter': {
      const hot = plan.input.k === 'unnest' ? hotUnnest(plan.input, ctx, uses) : null;
      if (hot) {
        hot.setFilter(hotFilter(plan.pred, plan.input as Extract<Plan, { k: 'unnest' }>, hot, compileOn));
        return hot;
      }
      const input = buildOperator(plan.input, ctx, null, uses);
      return new FilterExec(input, compileOn(input)(plan.pred), ctx);
    }
    case 'project': {
      const input = buildOperator(plan.input, ctx, limitHint, uses);
      return new ProjectExec(input, plan.exprs, plan.cols.map((c) => c.id), compileOn(input), ctx);
    }
    case 'unnest': {
      const hot = hotUnnest(plan, ctx, uses);
      if (hot) return hot;
      const input = buildOperator(plan.input, ctx, null, uses);
      return new UnnestExec(input, compileOn(input)(plan.array), plan.outer, plan.col.id, plan.offsetCol?.id ?? null, ctx);
    }
    case 'join': {
      const left = buildOperator(plan.left, ctx, null, uses);
      const right = buildOperator(plan.right, ctx, null, uses);
      const leftIds = plan.left.cols.map((c) => c.id);
      const join = new JoinExec(left, right, leftIds, plan.type, null, null, ctx);
      let on: Accessor | null = null;
      let equi: EquiKeys | null = null;
      if (plan.on) {
        on = compileExpr(plan.on, env(join));
        equi = equiKeys(plan.on, new Set(leftIds), new Set(plan.right.cols.map((c) => c.id)), env(left), env(right));
      }
      return new JoinExec(left, right, leftIds, plan.type, on, equi, ctx);
    }
    case 'aggregate': {
      const fast = hotBucketAgg(plan, ctx, uses, compileOn);
      if (fast) return fast;
      const input = buildOperator(plan.input, ctx, null, uses);
      return new AggregateExec(input, plan.keys, plan.aggs as Extract<BExpr, { k: 'agg' }>[], plan.cols.map((c) => c.id), compileOn(input), ctx);
    }
    case 'sort': {
      const input = buildOperator(plan.input, ctx, null, uses);
      const c = compileOn(input);
      return new SortExec(input, plan.keys.map((k) => ({ acc: c(k.expr), desc: k.desc, nullsFirst: k.nullsFirst })), ctx);
    }
    case 'limit': {
      const hint = plan.limit === null ? null : plan.limit + plan.offset;
      return new LimitExec(buildOperator(plan.input, ctx, hint, uses), plan.limit, plan.offset);
    }
    case 'distinct': {
      const input = buildOperator(plan.input, ctx, null, uses);
      return new DistinctExec(input, plan.cols.map((c) => c.id), ctx);
    }
    case 'setop': {
      const inputs = plan.inputs.map((p) => {
        const op = buildOperator(p, ctx, null, uses);
        return { op, accs: p.cols.map((c) => op.acc(c.id)) };
      });
      return new SetOpExec(inputs, plan.op, plan.all, plan.cols.map((c) => c.id), ctx);
    }
  }
}

/**
 * A JOIN UNNEST chain (LEFT or CROSS) straight off a scan whose last element is read only through fields
 * the store keeps as hot columns (and whose inner elements only feed the next unnest) → HotUnnestExec.
 */
function hotUnnest(top: Extract<Plan, { k: 'unnest' }>, ctx: ExecContext, uses: ColumnUses): HotUnnestExec | null {
  const chain: Extract<Plan, { k: 'unnest' }>[] = [];
  let p: Plan = top;
  while (p.k === 'unnest') {
    if (p.offsetCol) return null;
    chain.unshift(p);
    p = p.input;
  }
  // A projection of plain scan columns (a CTE such as logs.all's edge_logs) may sit below the chain.
  const alias = new Map<number, number>();
  if (p.k === 'project' && p.input.k === 'scan') {
    for (let i = 0; i < p.exprs.length; i++) {
      const e = p.exprs[i]!;
      if (e.k !== 'col') return null;
      alias.set(p.cols[i]!.id, e.id);
    }
    p = p.input;
  }
  if (p.k !== 'scan') return null;
  const scan = p;
  const first = chain[0]!.array;
  const firstId = first.k === 'col' ? (alias.get(first.id) ?? first.id) : -1;
  const firstCol = scan.cols.find((c) => c.id === firstId);
  if (!firstCol) return null;
  const fields: string[] = [];
  for (let i = 1; i < chain.length; i++) {
    const a = chain[i]!.array;
    const prevId = chain[i - 1]!.col.id;
    if (a.k !== 'field' || a.base.k !== 'col' || a.base.id !== prevId) return null;
    // The inner element feeds exactly this unnest and nothing else.
    const u = uses.get(prevId) ?? [];
    if (u.length !== 1 || u[0] !== a.name) return null;
    fields.push(a.name);
  }
  const leafNames = [...new Set(uses.get(top.col.id) ?? [])];
  if (!leafNames.length || leafNames.includes('*')) return null;
  const available = new Set(scan.source.hotKeys ?? []);
  const keys = leafNames.map((l) => [firstCol.name, ...fields, l].join('.'));
  if (!scan.source.hotDict || !keys.every((k) => available.has(k))) return null;
  const exec = new ScanExec(scan, ctx, null, keys);
  return new HotUnnestExec(exec, alias, {
    first: exec.acc(firstCol.id),
    fields,
    elemIds: chain.map((u) => u.col.id),
    outer: chain.map((u) => u.outer),
    leaves: leafNames.map((name, i) => ({ name, dict: scan.source.hotDict!(keys[i]!) as readonly HotValue[] })),
  }, ctx);
}

/**
 * `GROUP BY TIMESTAMP_TRUNC(timestamp, MINUTE|HOUR|DAY|...)` with COUNT/COUNTIF counters whose arguments
 * each read one hot leaf, over a (filtered) hot unnest chain → the vectorised HotBucketAggExec.
 */
function hotBucketAgg(plan: Extract<Plan, { k: 'aggregate' }>, ctx: ExecContext, uses: ColumnUses, compileOn: (op: Operator) => (e: BExpr) => Accessor): Operator | null {
  if (plan.keys.length !== 1) return null;
  const key = plan.keys[0]!;
  if (key.k !== 'call' || key.fn.name.toUpperCase() !== 'TIMESTAMP_TRUNC' || key.args.length !== 2) return null;
  const [tsArg, unitArg] = key.args as [BExpr, BExpr];
  if (tsArg.k !== 'col' || unitArg.k !== 'const' || typeof unitArg.value !== 'string') return null;
  const unit = unitArg.value.toUpperCase();
  if (truncWidthUs(unit) === undefined) return null;
  const filter = plan.input.k === 'filter' ? plan.input : null;
  const chainTop = filter ? filter.input : plan.input;
  if (chainTop.k !== 'unnest') return null;
  for (const a of plan.aggs) {
    if (a.k !== 'agg' || a.distinct) return null;
    const name = a.agg.name.toUpperCase();
    if (!((name === 'COUNT' && (a.star || a.args.length === 1)) || (name === 'COUNTIF' && a.args.length === 1))) return null;
  }
  const hot = hotUnnest(chainTop, ctx, uses);
  if (!hot || hot.scanColumnName(tsArg.id) !== 'timestamp') return null;
  const counters: HotCounter[] = [];
  for (const a of plan.aggs as Extract<BExpr, { k: 'agg' }>[]) {
    const kind = a.agg.name.toUpperCase() === 'COUNTIF' ? 'countif' : 'count';
    if (a.star || !a.args.length) { counters.push({ kind, arg: null, leaf: -1, key: '*' }); continue; }
    const leaf = memoLeaf(a.args[0]!, chainTop, hot);
    if (leaf === null) return null;
    counters.push({ kind, arg: compileOn(hot)(a.args[0]!), leaf, key: leafKey(a.args[0]!) });
  }
  if (filter) hot.setFilter(hotFilter(filter.pred, chainTop, hot, compileOn));
  return new HotBucketAggExec(hot, unit, compileOn(hot)(key), counters, plan.cols.map((c) => c.id), ctx);
}

/** Canonical text of an expression over the chain's last element only, the same in every query. */
const leafKey = (e: BExpr): string => exprKey(e, () => '$leaf');

function hotFilter(pred: BExpr, top: Extract<Plan, { k: 'unnest' }>, hot: HotUnnestExec, compileOn: (op: Operator) => (e: BExpr) => Accessor): HotFilter {
  const leaf = memoLeaf(pred, top, hot);
  return { pred: compileOn(hot)(pred), memoLeaf: leaf, memoKey: leaf === null ? null : 'filter:' + leafKey(pred) };
}

/** The leaf index when `pred` reads nothing but one leaf of the chain's last element (memoised per value). */
function memoLeaf(pred: BExpr, top: Extract<Plan, { k: 'unnest' }>, hot: HotUnnestExec): number | null {
  const ids = columnIds(pred);
  if (ids.size !== 1 || !ids.has(top.col.id)) return null;
  const names = new Set<string>();
  let whole = false;
  const walk = (e: BExpr): void => {
    if (e.k === 'field' && e.base.k === 'col') { names.add(e.name); return; }
    if (e.k === 'col') { whole = true; return; }
    if (e.k === 'subquery') { whole = true; return; }
    mapChildren(e, (c) => { walk(c); return c; });
  };
  walk(pred);
  if (whole || names.size !== 1) return null;
  const i = hot.leafIndex([...names][0]!);
  return i < 0 ? null : i;
}

/** `l = r` where l reads only left columns and r only right ones (either order) → hash keys. */
function equiKeys(on: BExpr, leftIds: Set<number>, rightIds: Set<number>, lenv: CompileEnv, renv: CompileEnv): EquiKeys | null {
  if (on.k !== 'call' || on.fn.name !== '$=') return null;
  const [a, b] = on.args as [BExpr, BExpr];
  const side = (e: BExpr): 'l' | 'r' | null => {
    const ids = [...columnIds(e)];
    if (!ids.length) return null;
    if (ids.every((i) => leftIds.has(i))) return 'l';
    if (ids.every((i) => rightIds.has(i))) return 'r';
    return null;
  };
  const sa = side(a), sb = side(b);
  if (sa === 'l' && sb === 'r') return { left: compileExpr(a, lenv), right: compileExpr(b, renv) };
  if (sa === 'r' && sb === 'l') return { left: compileExpr(b, lenv), right: compileExpr(a, renv) };
  return null;
}

function compileSubquery(e: Extract<BExpr, { k: 'subquery' }>, arg: Accessor | null, ctx: ExecContext): Accessor {
  let values: Value[] | null = null;
  let failure: { err: unknown } | null = null;
  // Built now, with the query's pipeline, so its scans read the same instant of the store.
  const op = buildOperator(e.plan, ctx, e.mode === 'exists' ? 1 : e.mode === 'scalar' ? 2 : null);
  const col = op.acc(e.plan.cols[0]!.id);
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
    case 'in': {
      let set: Set<string> | null = null;
      let hasNull = false;
      const not = !!e.not;
      return (r) => {
        const v = arg!(r);
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
  }
}
