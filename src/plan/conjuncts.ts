// Splitting a predicate into its AND-ed parts and joining parts back into one predicate.

import type { BExpr } from './bound.ts';

export function conjuncts(e: BExpr): BExpr[] {
  return e.k === 'and' ? e.args.flatMap(conjuncts) : [e];
}

export function andAll(parts: BExpr[]): BExpr | null {
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : { k: 'and', args: parts, type: 'BOOL' };
}
