// What the FROM-item and SELECT-list binders need from the query binder (binder.ts): its expression
// binder, the catalog, column and scan numbering, recursion into nested queries; and their error helper.

import { RingqlError } from '../core/errors.ts';
import type { Pos, Query } from '../sql/ast.ts';
import type { ColInfo, Plan } from './bound.ts';
import type { ExprBinder } from './bind-expr.ts';
import { posDetails } from './bind-error.ts';
import type { Catalog } from './catalog.ts';
import type { CteScope, FromScope } from './scope.ts';

export interface QueryBinder {
  readonly exprs: ExprBinder;
  readonly catalog: Catalog;
  newCol(name: string, type: ColInfo['type'], origin?: ColInfo['origin']): ColInfo;
  /** The next scan's id (each scan of a query gets its own). */
  newScanId(): number;
  bindQuery(q: Query, ctes: CteScope | null, trusted: boolean, outer: FromScope | null): Plan;
}

/** A bind error; the position goes into the details (not the message, unlike expression errors). */
export function fail(code: 'unknown_name' | 'ambiguous_name' | 'query_error' | 'sandbox_violation', msg: string, pos?: Pos, extra: Record<string, unknown> = {}): never {
  throw new RingqlError(code, msg, { ...posDetails(pos), ...extra });
}
