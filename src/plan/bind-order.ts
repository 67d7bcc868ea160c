// ORDER BY items that name a select output (ordinal or alias), and ORDER BY over a set operation,
// which may name only those.

import type { OrderItem } from '../sql/ast.ts';
import type { Plan } from './bound.ts';
import { colRef } from './bind-name.ts';
import { fail } from './query-binder.ts';
import { requireOrderable } from './orderable.ts';

/** ORDER BY item → index of the select output it names (ordinal or alias), or null. */
export function orderOutputIndex(o: OrderItem, items: { name?: string }[]): number | null {
  const e = o.expr;
  if (e.kind === 'literal' && e.type === 'int') {
    const i = Number(e.value) - 1;
    if (i < 0 || i >= items.length) fail('query_error', `ORDER BY position ${String(e.value)} is out of range (1..${items.length})`, e.pos);
    return i;
  }
  if (e.kind === 'ident' && e.parts.length === 1) {
    const l = e.parts[0]!.toLowerCase();
    const hits = items.map((it, i) => (it.name?.toLowerCase() === l ? i : -1)).filter((i) => i >= 0);
    if (hits.length > 1) fail('query_error', `ORDER BY ${e.parts[0]} is ambiguous: several output columns have that name`, e.pos);
    if (hits.length === 1) return hits[0]!;
  }
  return null;
}

/** ORDER BY over a set operation: only output names and ordinals. */
export function orderByOutputs(plan: Plan, orderBy: OrderItem[]): Plan {
  const keys = orderBy.map((o) => {
    const i = orderOutputIndex(o, plan.cols);
    if (i === null) fail('query_error', 'ORDER BY after a set operation must name an output column or position', o.expr.pos);
    requireOrderable(plan.cols[i]!.type, 'ORDER BY', o.expr.pos);
    return { expr: colRef(plan.cols[i]!), desc: o.desc, nullsFirst: o.nulls ? o.nulls === 'first' : !o.desc };
  });
  return { k: 'sort', input: plan, keys, cols: plan.cols };
}
