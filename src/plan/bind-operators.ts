// Operators and predicates: unary and binary operators, IS, IN, BETWEEN, LIKE, CASE; comparisons with
// BigQuery's literal coercion (a string compared with a TIMESTAMP is read as one) and BOOL checks.

import type { Expr, Pos } from '../sql/ast.ts';
import type { BExpr } from './bound.ts';
import { foldNode } from './fold.ts';
import { commonType, type SqlType } from '../core/types.ts';
import { checkSchemaTypes, expectBool, isNum } from './bind-checks.ts';
import { failAt } from './bind-error.ts';
import { callFn } from './bind-call.ts';
import type { ExprBind, ExprCtx } from './expr-ctx.ts';

export function bindUnary(x: ExprBind, e: Extract<Expr, { kind: 'unary' }>, ctx: ExprCtx): BExpr {
  const a = x.bind(e.operand, ctx);
  if (e.op === 'NOT') return { k: 'not', arg: expectBool(a, 'NOT', e.pos), type: 'BOOL' };
  if (e.op === '+') return a;
  if (e.op === '-') return callFn('$neg', [a], e.pos);
  failAt('query_error', `Operator ${e.op} is not supported`, e.pos);
}

export function bindBinary(x: ExprBind, op: string, l: Expr, r: Expr, ctx: ExprCtx, pos: Pos | undefined): BExpr {
  if (op === 'AND' || op === 'OR') {
    const a = expectBool(x.bind(l, ctx), op, pos);
    const b = expectBool(x.bind(r, ctx), op, pos);
    const k = op === 'AND' ? 'and' : 'or';
    const args = [...(a.k === k ? a.args : [a]), ...(b.k === k ? b.args : [b])];
    return foldNode({ k, args, type: 'BOOL' });
  }
  const a = x.bind(l, ctx);
  const b = x.bind(r, ctx);
  if (op === '=' || op === '!=' || op === '<' || op === '<=' || op === '>' || op === '>=') {
    checkSchemaTypes(op, [[a, l], [b, r]], pos);
    return cmp(op, a, b, pos);
  }
  if (op === '+' || op === '-' || op === '*' || op === '/') {
    if ((a.type === 'TIMESTAMP' || b.type === 'TIMESTAMP') && (a.type === 'INTERVAL' || b.type === 'INTERVAL') && op !== '*' && op !== '/') {
      const [t, iv] = a.type === 'TIMESTAMP' ? [a, b] : [b, a];
      return callFn(op === '+' ? 'TIMESTAMP_ADD' : 'TIMESTAMP_SUB', [t, iv], pos);
    }
    for (const v of [a, b]) {
      if (v.type !== 'INT64' && v.type !== 'FLOAT64' && v.type !== 'ANY' && v.type !== 'NULL') {
        failAt('query_error', `Operator ${op} needs numbers, got ${v.type}`, pos);
      }
    }
    return callFn('$' + op, [a, b], pos);
  }
  if (op === '||') return callFn('$||', [a, b], pos);
  failAt('query_error', `Operator ${op} is not supported`, pos);
}

export function bindIs(x: ExprBind, e: Extract<Expr, { kind: 'is' }>, ctx: ExprCtx): BExpr {
  const a = x.bind(e.operand, ctx);
  const fn = e.value === 'NULL' ? '$ISNULL' : e.value === 'TRUE' ? '$ISTRUE' : '$ISFALSE';
  const r = callFn(fn, [a], e.pos);
  return e.not ? { k: 'not', arg: r, type: 'BOOL' } : r;
}

export function bindIn(x: ExprBind, e: Extract<Expr, { kind: 'in' }>, ctx: ExprCtx): BExpr {
  const arg = x.bind(e.operand, ctx);
  const list = e.list.map((v) => coerceTo(x.bind(v, ctx), arg.type));
  checkSchemaTypes('IN', [[arg, e.operand], ...list.map((b, i): [BExpr, Expr] => [b, e.list[i]!])], e.pos);
  return { k: 'in', arg, list, not: e.not, type: 'BOOL' };
}

export function bindBetween(x: ExprBind, e: Extract<Expr, { kind: 'between' }>, ctx: ExprCtx): BExpr {
  const a = x.bind(e.operand, ctx);
  const lo = coerceTo(x.bind(e.low, ctx), a.type);
  const hi = coerceTo(x.bind(e.high, ctx), a.type);
  checkSchemaTypes('BETWEEN', [[a, e.operand], [lo, e.low], [hi, e.high]], e.pos);
  const r = foldNode({ k: 'and', args: [cmp('>=', a, lo, e.pos), cmp('<=', a, hi, e.pos)], type: 'BOOL' });
  return e.not ? { k: 'not', arg: r, type: 'BOOL' } : r;
}

export function bindLike(x: ExprBind, e: Extract<Expr, { kind: 'like' }>, ctx: ExprCtx): BExpr {
  const r = callFn('$LIKE', [x.bind(e.operand, ctx), x.bind(e.pattern, ctx)], e.pos);
  return e.not ? { k: 'not', arg: r, type: 'BOOL' } : r;
}

export function bindCase(x: ExprBind, e: Extract<Expr, { kind: 'case' }>, ctx: ExprCtx): BExpr {
  const operand = e.operand ? x.bind(e.operand, ctx) : null;
  const whens = e.whens.map((w) => {
    let cond = x.bind(w.when, ctx);
    if (operand) cond = foldNode(cmp('=', operand, coerceTo(cond, operand.type), e.pos));
    else cond = expectBool(cond, 'CASE WHEN', e.pos);
    return { when: cond, then: x.bind(w.then, ctx) };
  });
  const els: BExpr = e.else ? x.bind(e.else, ctx) : { k: 'const', value: null, type: 'NULL' };
  let type: SqlType = els.type;
  for (const w of whens) {
    const t = commonType(type, w.then.type);
    if (t === null) failAt('query_error', `CASE branches have incompatible types ${type} and ${w.then.type}`, e.pos);
    type = t;
  }
  return { k: 'case', whens, else: els, type };
}

/** Comparison with BigQuery's literal coercion (a string compared with a TIMESTAMP is read as one). */
export function cmp(op: string, a: BExpr, b: BExpr, pos: Pos | undefined): BExpr {
  const x = coerceTo(a, b.type);
  const y = coerceTo(b, x.type);
  const known = (t: SqlType) => t !== 'ANY' && t !== 'NULL';
  if (known(x.type) && known(y.type) && x.type !== y.type && !(isNum(x.type) && isNum(y.type))) {
    failAt('query_error', `No matching signature for operator ${op} for argument types: ${x.type}, ${y.type}`, pos);
  }
  return callFn('$' + op, [x, y], pos);
}

/** Reads a STRING constant (literal or parameter) as the other side's TIMESTAMP/DATETIME/DATE. */
export function coerceTo(e: BExpr, target: SqlType): BExpr {
  if (e.type !== 'STRING' || (target !== 'TIMESTAMP' && target !== 'DATETIME' && target !== 'DATE')) return e;
  if (e.k !== 'const') return e;
  return foldNode({ k: 'cast', arg: e, to: target, safe: false, type: target });
}
