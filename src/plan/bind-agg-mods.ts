// Aggregate-call modifiers (IGNORE/RESPECT NULLS, ORDER BY, LIMIT) bound where BigQuery allows them,
// and a query error naming the function and the modifier everywhere else (never silently dropped).

import type { Call } from '../sql/ast.ts';
import type { AggMods, BExpr } from './bound.ts';
import { exprKey } from './expr-key.ts';
import { notePin } from './param-trace.ts';
import { failAt } from './bind-error.ts';
import { requireOrderable } from './orderable.ts';
import type { ExprBind, ExprCtx } from './expr-ctx.ts';

type Modifier = 'IGNORE NULLS' | 'RESPECT NULLS' | 'ORDER BY' | 'LIMIT';

/** Which modifiers each aggregate accepts (BigQuery: ARRAY_AGG all, STRING_AGG ORDER BY and LIMIT). */
const ALLOWED: ReadonlyMap<string, ReadonlySet<Modifier>> = new Map([
  ['ARRAY_AGG', new Set<Modifier>(['IGNORE NULLS', 'RESPECT NULLS', 'ORDER BY', 'LIMIT'])],
  ['STRING_AGG', new Set<Modifier>(['ORDER BY', 'LIMIT'])],
]);

/** The modifiers written in a call, in source order. */
function written(e: Call): Modifier[] {
  const out: Modifier[] = [];
  if (e.nulls) out.push(e.nulls === 'ignore' ? 'IGNORE NULLS' : 'RESPECT NULLS');
  if (e.orderBy) out.push('ORDER BY');
  if (e.limit) out.push('LIMIT');
  return out;
}

/** Fails when a call of a function that takes no modifiers (any scalar function) has one, DISTINCT included. */
export function rejectModifiers(e: Call, name: string): void {
  if (e.distinct) failAt('query_error', `${name} does not support DISTINCT (only aggregate functions do)`, e.pos);
  const m = written(e)[0];
  if (m) failAt('query_error', `${name} does not support ${m}`, e.limit?.pos ?? e.pos);
}

/**
 * The bound modifiers of aggregate `name` over bound `args` (undefined when none changes the result).
 * `inner` is the per-row context the arguments were bound in; ORDER BY keys are bound there too.
 */
export function bindAggMods(x: ExprBind, e: Call, name: string, args: BExpr[], inner: ExprCtx): AggMods | undefined {
  const allowed = ALLOWED.get(name);
  for (const m of written(e)) {
    if (!allowed?.has(m)) failAt('query_error', `${name} does not support ${m}`, e.pos);
  }
  const order = (e.orderBy ?? []).map((o) => {
    const expr = x.bind(o.expr, { ...inner, clause: `the ORDER BY of ${name}` });
    requireOrderable(expr.type, `The ORDER BY of ${name}`, o.expr.pos ?? e.pos);
    return { expr, desc: o.desc, nullsFirst: o.nulls ? o.nulls === 'first' : !o.desc };
  });
  if (e.distinct && order.length) {
    const argKey = exprKey(args[0]!);
    if (order.some((o) => exprKey(o.expr) !== argKey)) {
      failAt('query_error', `${name} with DISTINCT may only ORDER BY its argument`, e.pos);
    }
  }
  const limit = e.limit ? bindLimit(x, e, name, inner) : null;
  // STRING_AGG skips NULL inputs anyway; saying so lets LIMIT count only the inputs that are kept.
  const ignoreNulls = e.nulls === 'ignore' || (name === 'STRING_AGG' && (order.length > 0 || limit !== null));
  if (!ignoreNulls && !order.length && limit === null) return undefined;
  return { ignoreNulls, order, limit };
}

function bindLimit(x: ExprBind, e: Call, name: string, inner: ExprCtx): number {
  const lim = e.limit!;
  const b = x.bind(lim, { ...inner, clause: `the LIMIT of ${name}` });
  notePin(b);
  // A parameter arrives as its text (as for the query's own LIMIT).
  const raw = b.k === 'const' && !b.clock ? b.value : undefined;
  const v = typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    failAt('query_error', `The LIMIT of ${name} needs a constant non-negative integer`, lim.pos ?? e.pos);
  }
  return v;
}
