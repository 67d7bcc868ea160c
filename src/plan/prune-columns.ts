// Rule PruneUnusedColumns: a projection's output column that no ancestor reads is dropped (through
// CTEs, subqueries in FROM, filters, sorts, limits, unnests and joins), so a scan under it is asked only
// for what the query uses. Expressions that could raise an error at run time are kept (see `droppable`).

import type { BExpr, Plan } from './bound.ts';
import { columnIds, someNode } from './expr-walk.ts';
import { traced } from './param-trace.ts';

/** Projections the rule narrowed (EXPLAIN names the rule on them). */
const pruned = new WeakSet<Plan>();

/** Whether `p` is a projection PruneUnusedColumns narrowed. */
export function prunedProjection(p: Plan): boolean {
  return pruned.has(p);
}

/** `plan` with every projection narrowed to the columns its ancestors read; the root keeps all its columns. */
export function pruneUnusedColumns(plan: Plan): Plan {
  return prune(plan, new Set(plan.cols.map((c) => c.id)));
}

/**
 * Whether dropping `e` unevaluated cannot change the answer: it reads a column, a field of one (a missing
 * field reads NULL, never an error), a literal, or a record or array of those. Anything that calls a
 * function, casts or subscripts may fail on some row, and BigQuery reports that error even when the
 * column is not read above, so such expressions are kept. A constant folded from a parameter is kept
 * too: a prepared plan recomputes it for other values, where it may fail.
 */
export function droppable(e: BExpr): boolean {
  switch (e.k) {
    case 'col': return true;
    case 'const': return !traced(e);
    case 'field': return droppable(e.base);
    case 'struct': return e.fields.every((f) => droppable(f.expr));
    case 'array': return e.elements.every(droppable);
    default: return false;
  }
}

function prune(p: Plan, need: Set<number>): Plan {
  switch (p.k) {
    case 'scan': case 'values': case 'rows': return p;
    case 'project': return project(p, need);
    // Every input column decides which rows are equal (DISTINCT) or match (set operations).
    case 'distinct': return passThrough(p, allOf(p.input));
    case 'setop': return { ...p, inputs: p.inputs.map((i) => prune(i, allOf(i))) };
    case 'aggregate': return { ...p, input: prune(p.input, readsOf([...p.keys, ...p.aggs])) };
    case 'filter': return passThrough(p, union(need, readsOf([p.pred])));
    case 'sort': return passThrough(p, union(need, readsOf(p.keys.map((k) => k.expr))));
    case 'limit': return passThrough(p, need);
    case 'unnest': return passThrough(p, union(need, readsOf([p.array])));
    case 'join': {
      const n = p.on ? union(need, readsOf([p.on])) : need;
      const left = prune(p.left, n), right = prune(p.right, n);
      const have = new Set([...left.cols, ...right.cols].map((c) => c.id));
      return { ...p, left, right, cols: p.cols.filter((c) => have.has(c.id)) };
    }
  }
}

/** A node that passes its input's columns on (with an unnest's own columns): its columns follow its input's. */
function passThrough(p: Extract<Plan, { input: Plan }>, need: Set<number>): Plan {
  const input = prune(p.input, need);
  const have = new Set(input.cols.map((c) => c.id));
  if (p.k === 'unnest') {
    have.add(p.col.id);
    if (p.offsetCol) have.add(p.offsetCol.id);
  }
  return { ...p, input, cols: p.cols.filter((c) => have.has(c.id)) } as Plan;
}

function project(p: Extract<Plan, { k: 'project' }>, need: Set<number>): Plan {
  let keep = p.exprs.map((e, i) => need.has(p.cols[i]!.id) || !droppable(e));
  // Nothing read above (COUNT(*) over it): one plain column keeps the rows flowing and the node readable.
  if (!keep.includes(true)) {
    const first = Math.max(0, p.exprs.findIndex((e) => e.k === 'col'));
    keep = keep.map((_, i) => i === first);
  }
  const exprs = p.exprs.filter((_, i) => keep[i]);
  const input = prune(p.input, readsOf(exprs));
  if (exprs.length === p.exprs.length) return { ...p, input };
  const out: Plan = { ...p, input, exprs, cols: p.cols.filter((_, i) => keep[i]) };
  pruned.add(out);
  return out;
}

function allOf(p: Plan): Set<number> {
  return new Set(p.cols.map((c) => c.id));
}

function union(a: Set<number>, b: Set<number>): Set<number> {
  const out = new Set(a);
  for (const x of b) out.add(x);
  return out;
}

/**
 * Column ids the expressions read, including every column named inside their subqueries (a correlated
 * subquery reads the outer row's columns; ids are unique, so naming its own columns too is harmless).
 */
function readsOf(exprs: BExpr[]): Set<number> {
  const out = new Set<number>();
  const visit = (e: BExpr): void => {
    columnIds(e, out);
    someNode(e, (x) => {
      if (x.k === 'subquery') planReads(x.plan, visit);
      return false;
    });
  };
  exprs.forEach(visit);
  return out;
}

/** Visits every expression of a plan and of the plans under it. */
function planReads(p: Plan, visit: (e: BExpr) => void): void {
  switch (p.k) {
    case 'scan': case 'rows': return;
    case 'values': p.rows.flat().forEach(visit); return;
    case 'filter': visit(p.pred); break;
    case 'project': p.exprs.forEach(visit); break;
    case 'unnest': visit(p.array); break;
    case 'join': if (p.on) visit(p.on); planReads(p.left, visit); planReads(p.right, visit); return;
    case 'aggregate': [...p.keys, ...p.aggs].forEach(visit); break;
    case 'sort': p.keys.forEach((k) => visit(k.expr)); break;
    case 'setop': p.inputs.forEach((i) => planReads(i, visit)); return;
    case 'limit': case 'distinct': break;
  }
  planReads(p.input, visit);
}
