// Constants: literals, query parameters (traced for prepare-once when asked), INTERVAL values and
// date-part arguments (MINUTE, WEEK(MONDAY)) as constant strings.

import { isDatePart } from '../core/date-parts.ts';
import { parseTimestamp } from '../core/time.ts';
import type { IntervalValue } from '../core/values.ts';
import type { Expr, Ident } from '../sql/ast.ts';
import type { BExpr } from './bound.ts';
import { foldNode } from './fold.ts';
import { notePin } from './param-trace.ts';
import { failAt } from './bind-error.ts';
import type { ExprBind, ExprBinderHost, ExprCtx } from './expr-ctx.ts';

export function bindLiteral(e: Extract<Expr, { kind: 'literal' }>): BExpr {
  switch (e.type) {
    case 'string': case 'bytes': return { k: 'const', value: e.value as string, type: 'STRING' };
    case 'int': return { k: 'const', value: Number(e.value), type: 'INT64' };
    case 'float': return { k: 'const', value: Number(e.value), type: 'FLOAT64' };
    case 'bool': return { k: 'const', value: e.value as boolean, type: 'BOOL' };
    case 'null': return { k: 'const', value: null, type: 'NULL' };
    case 'timestamp': {
      const us = parseTimestamp(e.value);
      if (us === null) failAt('query_error', `Invalid TIMESTAMP literal "${String(e.value)}"`, e.pos);
      return { k: 'const', value: us, type: 'TIMESTAMP' };
    }
    case 'datetime': case 'date': {
      const arg: BExpr = { k: 'const', value: e.value as string, type: 'STRING' };
      const to = e.type === 'date' ? 'DATE' : 'DATETIME';
      return foldNode({ k: 'cast', arg, to, safe: false, type: to });
    }
  }
}

/** `@name`: its value as a STRING constant (NULL when absent); an undeclared name is an error. */
export function bindParam(host: ExprBinderHost, e: Extract<Expr, { kind: 'param' }>): BExpr {
  const name = e.name;
  const declared = host.declaredParams;
  if (declared && !declared.has(name) && !declared.has(name.toLowerCase())) {
    failAt('unknown_name', `Query parameter @${name} is not declared by this endpoint (declared: ${[...declared].map((d) => '@' + d).join(', ') || 'none'})`, e.pos);
  }
  const v = host.params.get(name) ?? host.params.get(name.toLowerCase()) ?? null;
  return host.traceParams ? { k: 'const', value: v, type: 'STRING', param: name } : { k: 'const', value: v, type: 'STRING' };
}

export function bindInterval(x: ExprBind, e: Extract<Expr, { kind: 'interval' }>, ctx: ExprCtx): BExpr {
  const v = x.bind(e.value, ctx);
  notePin(v);
  const unit = e.unit.toUpperCase();
  if (!isDatePart(unit)) failAt('query_error', `Unknown INTERVAL unit ${e.unit}`, e.pos);
  if (v.k !== 'const' || typeof v.value !== 'number') failAt('query_error', 'INTERVAL needs a constant integer, e.g. INTERVAL 1 HOUR', e.pos);
  const iv: IntervalValue = { interval: true, n: v.value as number, unit };
  return v.clock ? { k: 'const', value: iv, type: 'INTERVAL', clock: 'other' } : { k: 'const', value: iv, type: 'INTERVAL' };
}

/** A date part argument (MINUTE, WEEK(MONDAY)) as a constant string. */
export function datePartArg(a: Expr): BExpr {
  if (a.kind === 'ident' && a.parts.length === 1) {
    const unit = a.parts[0]!.toUpperCase();
    if (!isDatePart(unit)) failAt('query_error', `Unknown date part ${a.parts[0]}; expected one of MICROSECOND, MILLISECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR`, a.pos);
    return { k: 'const', value: unit, type: 'STRING' };
  }
  if (a.kind === 'call' && a.name.toUpperCase() === 'WEEK' && a.args.length === 1 && a.args[0]!.kind === 'ident') {
    return { k: 'const', value: `WEEK(${(a.args[0] as Ident).parts[0]!.toUpperCase()})`, type: 'STRING' };
  }
  if (a.kind === 'literal' && a.type === 'string') return { k: 'const', value: String(a.value).toUpperCase(), type: 'STRING' };
  failAt('query_error', 'Expected a date part such as MINUTE, HOUR or DAY', a.pos);
}
