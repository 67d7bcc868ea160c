// Function calls: aggregates (only where the clause collects them), CURRENT_TIMESTAMP, ARRAY(subquery),
// scalar functions with arity and type checks, and constant regexes checked at plan time.

import { RingqlError } from '../core/errors.ts';
import type { Expr, Pos } from '../sql/ast.ts';
import { scalarFunction, aggregateFunction, type FnDef } from '../fn/index.ts';
import type { BExpr } from './bound.ts';
import { foldNode } from './fold.ts';
import type { SqlType } from '../core/types.ts';
import { traced } from './param-trace.ts';
import { expectBool, noteSpecialize } from './bind-checks.ts';
import { failAt, posDetails } from './bind-error.ts';
import { datePartArg } from './bind-literal.ts';
import { subqueryPlan } from './bind-subquery.ts';
import type { ExprBind, ExprCtx } from './expr-ctx.ts';
import { bindAggMods, rejectModifiers } from './bind-agg-mods.ts';

export function bindCall(x: ExprBind, e: Extract<Expr, { kind: 'call' }>, ctx: ExprCtx): BExpr {
  const name = e.name.toUpperCase();
  const agg = aggregateFunction(name);
  if (agg) {
    if (ctx.aggMode === 'forbid') failAt('query_error', `Aggregate function ${name} is not allowed in ${ctx.clause}`, e.pos);
    if (e.star && name !== 'COUNT') failAt('query_error', `${name}(*) is not valid; only COUNT(*)`, e.pos);
    // aggregate arguments are evaluated per input row: no nested aggregates
    const inner: ExprCtx = { ...ctx, aggMode: 'forbid', clause: `an argument of ${name}` };
    const args = e.args.map((a) => x.bind(a, inner));
    const n = e.star ? 0 : args.length;
    if (n < agg.minArgs || n > agg.maxArgs) failAt('query_error', `${name} expects ${arity(agg.minArgs, agg.maxArgs)}, got ${n}`, e.pos);
    if (name === 'COUNTIF') args[0] = expectBool(args[0]!, 'COUNTIF', e.pos);
    const mods = bindAggMods(x, e, name, args, inner);
    const node: BExpr = { k: 'agg', agg, args, distinct: !!e.distinct, star: !!e.star, type: agg.type(args.map((a) => a.type)) };
    return mods ? { ...node, mods } : node;
  }
  rejectModifiers(e, name);
  if (name === 'CURRENT_TIMESTAMP' || name === 'NOW') {
    if (e.args.length) failAt('query_error', `${name} takes no arguments`, e.pos);
    return { k: 'const', value: x.host.nowUs, type: 'TIMESTAMP', clock: 'affine' };
  }
  if (name === 'ARRAY' && e.args.length === 1 && e.args[0]!.kind === 'subquery') {
    const plan = subqueryPlan(x.host, e.args[0]!.query, ctx, 1, 'ARRAY(subquery)');
    return { k: 'subquery', plan, mode: 'array', type: 'ARRAY' };
  }
  const fn = scalarFunction(name);
  if (!fn || name.startsWith('$')) failAt('unknown_name', `Function not found: ${e.name}`, e.pos);
  const args = e.args.map((a, i) => (fn.datePartArgs?.includes(i) ? datePartArg(a) : x.bind(a, ctx)));
  return callFn(name, args, e.pos, e.safe ?? false, fn);
}

/** A call of a registered scalar function (or an operator's `$` function) on bound arguments, folded. */
export function callFn(name: string, args: BExpr[], pos: Pos | undefined, safe = false, def?: FnDef): BExpr {
  const fn = def ?? scalarFunction(name);
  if (!fn) throw new Error(`internal function ${name} missing from the registry`);
  if (args.length < fn.minArgs || args.length > fn.maxArgs) {
    failAt('query_error', `${name} expects ${arity(fn.minArgs, fn.maxArgs)}, got ${args.length}`, pos);
  }
  let type: SqlType;
  try {
    type = fn.type(args.map((a) => a.type));
  } catch (err) {
    if (err instanceof RingqlError && pos) throw new RingqlError(err.code, `${err.message} [at ${pos.line}:${pos.column}]`, posDetails(pos));
    throw err;
  }
  const e: BExpr = { k: 'call', fn, args, type, safe };
  if (fn.specialize && args.some(traced)) noteSpecialize(fn, args);
  // An invalid constant regex is a query error at plan time, with the position.
  if (fn.specialize && args.slice(1).some((a) => a.k === 'const' && a.value !== null)) {
    try {
      fn.specialize(args.map((a) => (a.k === 'const' ? a.value : undefined)));
    } catch (err) {
      if (err instanceof RingqlError && !safe) throw new RingqlError(err.code, pos ? `${err.message} [at ${pos.line}:${pos.column}]` : err.message, { ...err.details, ...posDetails(pos) });
      if (!(err instanceof RingqlError)) throw err;
    }
  }
  return foldNode(e);
}

const arity = (min: number, max: number): string => (min === max ? `${min} argument${min === 1 ? '' : 's'}` : `${min} to ${max} arguments`);
