// BigQuery orders by neither ARRAY nor STRUCT values: an ORDER BY key of either type (the query's own
// or an aggregate's) is a query_error rather than an order ringql would make up.

import type { Pos } from '../sql/ast.ts';
import type { SqlType } from '../core/types.ts';
import { failAt } from './bind-error.ts';

/** Fails when a sort key of type `type` cannot be ordered; `where` names the clause ("ORDER BY", "the ORDER BY of ARRAY_AGG"). */
export function requireOrderable(type: SqlType, where: string, pos: Pos | undefined): void {
  if (type === 'ARRAY' || type === 'STRUCT') failAt('query_error', `${where} does not support expressions of type ${type}`, pos);
}
