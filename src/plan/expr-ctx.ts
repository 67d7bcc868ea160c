// What binding one expression sees (ExprCtx), what it needs from the query binder (ExprBinderHost),
// and the recursion the per-kind expression binders call back into (ExprBind).

import type { Expr, Query } from '../sql/ast.ts';
import type { BExpr, ColInfo, Plan } from './bound.ts';
import type { CteScope, FromScope } from './scope.ts';
import type { SqlType } from '../core/types.ts';

export interface ExprCtx {
  scope: FromScope;
  ctes: CteScope;
  trusted: boolean;
  /** Where aggregates may appear; 'collect' gathers them (SELECT/HAVING/ORDER BY of a grouped query). */
  aggMode: 'forbid' | 'collect';
  clause: string;
  /** Select-list aliases usable here (GROUP BY / ORDER BY / HAVING), lower-cased name → expression. */
  aliases?: Map<string, Expr>;
  /** The enclosing scope an EXISTS-over-UNNEST predicate may read (see bind-exists-unnest.ts). */
  lateral?: FromScope;
}

export interface ExprBinderHost {
  params: ReadonlyMap<string, string | null>;
  declaredParams: ReadonlySet<string> | null;
  /** Mark constants bound from parameters (and the decisions taken on them) for prepare-once. */
  traceParams?: boolean;
  nowUs: number;
  /** Binds a subquery in a child scope of `scope`; sets `correlated` when it reads outer columns. */
  bindSubquery(q: Query, ctx: ExprCtx): Plan;
  newCol(name: string, type: SqlType): ColInfo;
}

/** The expression binder as the per-kind binders see it: binding (and folding) a child, and the host. */
export interface ExprBind {
  readonly host: ExprBinderHost;
  bind(e: Expr, ctx: ExprCtx): BExpr;
}
