// Constant folding: evaluates every sub-expression whose inputs are constants (parameters are
// constants once bound), and collapses CASE/AND/OR/IF on constant conditions so that, e.g.,
// CASE WHEN @interval = 'daily' THEN ... keeps only its live branch.

import { RingqlError } from '../core/errors.ts';
import { compileExpr } from '../fn/compile-expr.ts';
import type { BExpr } from './bound.ts';

const noColumns = {
  col(): never { throw new Error('constant folding reached a column'); },
  subquery(): never { throw new Error('constant folding reached a subquery'); },
};

function isConst(e: BExpr): e is Extract<BExpr, { k: 'const' }> {
  return e.k === 'const';
}

/** Folds one node whose children are already folded. */
export function foldNode(e: BExpr): BExpr {
  switch (e.k) {
    case 'const': case 'col': case 'subquery': case 'agg':
      return e;
    case 'and': {
      const rest: BExpr[] = [];
      for (const a of e.args) {
        if (isConst(a)) {
          if (a.value === false) return { k: 'const', value: false, type: 'BOOL' };
          if (a.value === true) continue;
        }
        rest.push(a);
      }
      if (rest.length === 0) return { k: 'const', value: true, type: 'BOOL' };
      if (rest.length === 1 && rest[0]!.type === 'BOOL' && !isConst(rest[0]!)) return rest[0]!;
      return rest.length === e.args.length ? tryEval(e) : tryEval({ ...e, args: rest });
    }
    case 'or': {
      const rest: BExpr[] = [];
      for (const a of e.args) {
        if (isConst(a)) {
          if (a.value === true) return { k: 'const', value: true, type: 'BOOL' };
          if (a.value === false) continue;
        }
        rest.push(a);
      }
      if (rest.length === 0) return { k: 'const', value: false, type: 'BOOL' };
      if (rest.length === 1 && rest[0]!.type === 'BOOL' && !isConst(rest[0]!)) return rest[0]!;
      return rest.length === e.args.length ? tryEval(e) : tryEval({ ...e, args: rest });
    }
    case 'case': {
      const whens: { when: BExpr; then: BExpr }[] = [];
      for (const w of e.whens) {
        if (isConst(w.when)) {
          if (w.when.value === true) {
            if (whens.length === 0) return retype(w.then, e.type);
            return { ...e, whens, else: w.then };
          }
          continue; // FALSE or NULL: never taken
        }
        whens.push(w);
      }
      if (whens.length === 0) return retype(e.else, e.type);
      return tryEval({ ...e, whens });
    }
    case 'cast':
      if (e.arg.type === e.to && e.to !== 'ANY') return e.arg;
      return tryEval(e);
    case 'call':
      if (e.fn.name === 'IF' && isConst(e.args[0]!)) return retype(e.args[0]!.value === true ? e.args[1]! : e.args[2]!, e.type);
      return tryEval(e);
    default:
      return tryEval(e);
  }
}

/** Keeps the static type of the expression a branch replaces (a NULL branch keeps the CASE type). */
function retype(e: BExpr, type: BExpr['type']): BExpr {
  return isConst(e) && e.type === 'NULL' ? { ...e, type } : e;
}

function childrenConst(e: BExpr): boolean {
  switch (e.k) {
    case 'field': return isConst(e.base);
    case 'call': return e.args.every(isConst);
    case 'and': case 'or': return e.args.every(isConst);
    case 'not': return isConst(e.arg);
    case 'case': return e.whens.every((w) => isConst(w.when) && isConst(w.then)) && isConst(e.else);
    case 'cast': return isConst(e.arg);
    case 'in': return isConst(e.arg) && e.list.every(isConst);
    case 'inArray': return isConst(e.arg) && isConst(e.array);
    case 'subscript': return isConst(e.base) && isConst(e.index);
    case 'array': return e.elements.every(isConst);
    case 'struct': return e.fields.every((f) => isConst(f.expr));
    default: return false;
  }
}

/**
 * Evaluates a node with constant children. A failure (a bad CAST of a parameter, say) is not
 * raised here: the node stays as it is and fails only if a row actually evaluates it.
 */
function tryEval(e: BExpr): BExpr {
  if (!childrenConst(e)) return e;
  try {
    const v = compileExpr(e, noColumns)(null);
    return { k: 'const', value: v, type: e.type };
  } catch (err) {
    if (err instanceof RingqlError) return e;
    throw err;
  }
}
