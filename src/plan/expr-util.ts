// Re-exports kept only for binder.ts and bind-expr.ts, which another change is rewriting: delete this
// file once they import expr-key.ts, expr-walk.ts and origin-of.ts directly (issue 14 item 5).

export { exprKey, registerSubqueryPlan } from './expr-key.ts';
export { columnIds, mapChildren } from './expr-walk.ts';
export { originOf } from './origin-of.ts';
