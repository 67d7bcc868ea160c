// Whether an AST expression calls an aggregate function outside subqueries (a grouped SELECT).

import type { Expr } from '../sql/ast.ts';
import { aggregateFunction } from '../fn/index.ts';

/** Whether an AST expression contains an aggregate call outside subqueries. */
export function hasAggregate(e: Expr): boolean {
  switch (e.kind) {
    case 'call':
      return !!aggregateFunction(e.name) || e.args.some(hasAggregate);
    case 'unary': return hasAggregate(e.operand);
    case 'binary': return hasAggregate(e.left) || hasAggregate(e.right);
    case 'is': return hasAggregate(e.operand);
    case 'in': return hasAggregate(e.operand) || e.list.some(hasAggregate);
    case 'inSubquery': case 'inUnnest': return hasAggregate(e.operand);
    case 'between': return hasAggregate(e.operand) || hasAggregate(e.low) || hasAggregate(e.high);
    case 'like': return hasAggregate(e.operand) || hasAggregate(e.pattern);
    case 'case': return (e.operand ? hasAggregate(e.operand) : false) || e.whens.some((w) => hasAggregate(w.when) || hasAggregate(w.then)) || (e.else ? hasAggregate(e.else) : false);
    case 'cast': return hasAggregate(e.expr);
    case 'subscript': return hasAggregate(e.base) || hasAggregate(e.index);
    case 'field': return hasAggregate(e.base);
    case 'array': return e.elements.some(hasAggregate);
    case 'struct': return e.fields.some((f) => hasAggregate(f.expr));
    case 'extract': return hasAggregate(e.expr);
    default: return false;
  }
}
