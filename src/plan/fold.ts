// Constant folding: evaluates every sub-expression whose inputs are constants (parameters are
// constants once bound), and collapses CASE/AND/OR/IF on constant conditions so that, e.g.,
// CASE WHEN @interval = 'daily' THEN ... keeps only its live branch. Constants computed from
// CURRENT_TIMESTAMP carry a Clock mark; folding never decides a branch on one (the decision would
// vanish from the plan), so a plan shows every place where its answer depends on the time.

import { fixedPartUs } from '../core/date-parts.ts';
import { RingqlError } from '../core/errors.ts';
import { compileExpr } from './compile-expr.ts';
import { activeMeter } from '../core/work-meter.ts';
import type { BExpr, Clock } from './bound.ts';
import { noteDecision, noteTruth, traced, traceOf } from './param-trace.ts';

const noColumns = {
  col(): never { throw new Error('constant folding reached a column'); },
  subquery(): never { throw new Error('constant folding reached a subquery'); },
};

type Const = Extract<BExpr, { k: 'const' }>;

function isConst(e: BExpr): e is Const {
  return e.k === 'const';
}

/** A constant a fold may decide on: one that does not depend on the clock. */
function isFixed(e: BExpr): e is Const {
  return e.k === 'const' && e.clock === undefined;
}


/** The clock mark of a value computed from constant children. */
function clockOf(e: BExpr, kids: readonly BExpr[]): Clock | undefined {
  if (!kids.some((c) => c.k === 'const' && c.clock !== undefined)) return undefined;
  if (e.k === 'call' && (e.fn.name === 'TIMESTAMP_SUB' || e.fn.name === 'TIMESTAMP_ADD') && kids.length === 2) {
    const [t, iv] = kids as [Const, Const];
    const v = iv.value as { unit?: unknown } | null;
    if (t.clock === 'affine' && iv.clock === undefined && v !== null && typeof v === 'object' && fixedPartUs(String(v.unit)) !== undefined) return 'affine';
  }
  return 'other';
}

/** Folds one node whose children are already folded. */
export function foldNode(e: BExpr): BExpr {
  switch (e.k) {
    case 'const': case 'col': case 'subquery': case 'agg': case 'anyElement':
      return e;
    case 'and': {
      const rest: BExpr[] = [];
      for (const a of e.args) {
        if (isFixed(a)) {
          noteTruth(a);
          if (a.value === false) return { k: 'const', value: false, type: 'BOOL' };
          if (a.value === true) continue;
        }
        rest.push(a);
      }
      if (rest.length === 0) return { k: 'const', value: true, type: 'BOOL' };
      if (rest.length === 1 && rest[0]!.type === 'BOOL' && !isFixed(rest[0]!)) return rest[0]!;
      return rest.length === e.args.length ? tryEval(e) : tryEval({ ...e, args: rest });
    }
    case 'or': {
      const rest: BExpr[] = [];
      for (const a of e.args) {
        if (isFixed(a)) {
          noteTruth(a);
          if (a.value === true) return { k: 'const', value: true, type: 'BOOL' };
          if (a.value === false) continue;
        }
        rest.push(a);
      }
      if (rest.length === 0) return { k: 'const', value: false, type: 'BOOL' };
      if (rest.length === 1 && rest[0]!.type === 'BOOL' && !isFixed(rest[0]!)) return rest[0]!;
      return rest.length === e.args.length ? tryEval(e) : tryEval({ ...e, args: rest });
    }
    case 'case': {
      const whens: { when: BExpr; then: BExpr }[] = [];
      for (const w of e.whens) {
        if (isFixed(w.when)) {
          noteTruth(w.when);
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
      if (e.fn.name === 'IF' && isFixed(e.args[0]!)) noteTruth(e.args[0]!);
      if (e.fn.name === 'IF' && isFixed(e.args[0]!)) return retype(e.args[0]!.value === true ? e.args[1]! : e.args[2]!, e.type);
      return tryEval(e);
    default:
      return tryEval(e);
  }
}

const failsClass = (vals: unknown[] | null): string => (vals === null ? 'fails' : 'folds');

/** Keeps the static type of the expression a branch replaces (a NULL branch keeps the CASE type). */
function retype(e: BExpr, type: BExpr['type']): BExpr {
  return isConst(e) && e.type === 'NULL' ? { ...e, type } : e;
}

/** The node's children when every one is a constant, else null. */
function constChildren(e: BExpr): BExpr[] | null {
  let kids: BExpr[];
  switch (e.k) {
    case 'field': kids = [e.base]; break;
    case 'call': case 'and': case 'or': kids = e.args; break;
    case 'not': kids = [e.arg]; break;
    case 'case': kids = [...e.whens.flatMap((w) => [w.when, w.then]), e.else]; break;
    case 'cast': kids = [e.arg]; break;
    case 'in': kids = [e.arg, ...e.list]; break;
    case 'inArray': kids = [e.arg, e.array]; break;
    case 'subscript': kids = [e.base, e.index]; break;
    case 'array': kids = e.elements; break;
    case 'struct': kids = e.fields.map((f) => f.expr); break;
    default: return null;
  }
  return kids.every(isConst) ? kids : null;
}

/**
 * Evaluates a node with constant children. A failure (a bad CAST of a parameter, say) is not
 * raised here: the node stays as it is and fails only if a row actually evaluates it.
 */
function tryEval(e: BExpr): BExpr {
  const kids = constChildren(e);
  if (kids === null) return e;
  // Folding is work of the query: charged to its meter, so a fold that runs long ends the query in budget.
  activeMeter().tick();
  try {
    const v = compileExpr(e, noColumns)(null);
    const clock = clockOf(e, kids);
    const c: BExpr = clock ? { k: 'const', value: v, type: e.type, clock } : { k: 'const', value: v, type: e.type };
    const trace = traceOf(e, kids);
    // Whether it folds under other values is checked when they are put in (engine/substitute.ts): only
    // constants left in the plan matter, not those of a branch folded away.
    return trace ? { ...c, ...trace } : c;
  } catch (err) {
    // An error is left for the row that evaluates the expression (it may never be evaluated); running out
    // of time is not such an error.
    if (err instanceof RingqlError && err.code !== 'query_timeout') {
      // Whether it fails depends on the parameter values it was folded from: a plan holds only while it does.
      if (kids.some(traced)) noteDecision([e], failsClass, null);
      return e;
    }
    throw err;
  }
}
