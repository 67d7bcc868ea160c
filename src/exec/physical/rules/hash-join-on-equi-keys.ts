// Rule HashJoinOnEquiKeys: a join whose ON is `l = r`, l reading only left columns and r only right
// ones (either order), probes a hash table on those keys instead of testing every pair.

import type { BExpr, Plan } from '../../../plan/bound.ts';
import { columnIds } from '../../../plan/expr-walk.ts';

/** The left and right key expressions, or null when the rule does not apply. */
export function hashJoinOnEquiKeys(join: Extract<Plan, { k: 'join' }>): { left: BExpr; right: BExpr } | null {
  const on = join.on;
  if (!on || on.k !== 'call' || on.fn.name !== '$=') return null;
  const leftIds = new Set(join.left.cols.map((c) => c.id));
  const rightIds = new Set(join.right.cols.map((c) => c.id));
  const [a, b] = on.args as [BExpr, BExpr];
  const side = (e: BExpr): 'l' | 'r' | null => {
    const ids = [...columnIds(e)];
    if (!ids.length) return null;
    if (ids.every((i) => leftIds.has(i))) return 'l';
    if (ids.every((i) => rightIds.has(i))) return 'r';
    return null;
  };
  const sa = side(a), sb = side(b);
  if (sa === 'l' && sb === 'r') return { left: a, right: b };
  if (sa === 'r' && sb === 'l') return { left: b, right: a };
  return null;
}
