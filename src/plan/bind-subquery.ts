// Subqueries in expressions: a scalar/IN/ARRAY subquery's plan (with its column count checked), and
// EXISTS, whose one correlated shape (over the UNNEST of the current row's array) binds per row.

import { RingqlError } from '../core/errors.ts';
import type { Expr, Query } from '../sql/ast.ts';
import type { BExpr, Plan } from './bound.ts';
import type { SqlType } from '../core/types.ts';
import { registerSubqueryPlan } from './expr-key.ts';
import { bindExistsOverUnnest, unnestShape } from './bind-exists-unnest.ts';
import { expectBool } from './bind-checks.ts';
import { failAt } from './bind-error.ts';
import { CORRELATED } from './bind-name.ts';
import type { ExprBind, ExprBinderHost, ExprCtx } from './expr-ctx.ts';

/** EXISTS: a subquery plan; a correlated one only over the UNNEST of the current row's array. */
export function bindExists(x: ExprBind, q: Query, ctx: ExprCtx): BExpr {
  const shape = unnestShape(q, ctx.scope);
  const host = { bind: (e: Expr, c: ExprCtx) => x.bind(e, c), expectBool, newCol: (n: string, t: SqlType) => x.host.newCol(n, t) };
  if (shape?.path) return bindExistsOverUnnest(host, shape, ctx);
  try {
    return { k: 'subquery', plan: subqueryPlan(x.host, q, ctx, null, 'EXISTS'), mode: 'exists', type: 'BOOL' };
  } catch (err) {
    if (shape === null || !(err instanceof RingqlError && err.message.startsWith(CORRELATED))) throw err;
    return bindExistsOverUnnest(host, shape, ctx);
  }
}

export function subqueryPlan(host: ExprBinderHost, q: Query, ctx: ExprCtx, cols: number | null, what: string): Plan {
  const plan = host.bindSubquery(q, ctx);
  if (cols !== null && plan.cols.length !== cols) failAt('query_error', `${what} must return exactly one column (got ${plan.cols.length})`, q.pos);
  registerSubqueryPlan(plan);
  return plan;
}
