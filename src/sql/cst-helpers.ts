// Helpers of the CST-to-AST visitor (cst-to-ast.ts, cst-expr-visitor.ts): reading a rule's children,
// positions, syntax errors, literal decoding and the operator tables.

import type { CstElement, CstNode, IToken } from 'chevrotain';
import * as T from '../../grammar/sql-tokens.ts';
import { RingqlError } from '../core/errors.ts';
import type { BinaryOp, Call, Expr, Literal, OrderItem, Pos, Query, Subscript } from './ast.ts';
import { decodeBacktick, decodeStringLiteral } from './quoting.ts';

export type Ctx = Record<string, CstElement[] | undefined>;

export const toks = (ctx: Ctx, key: string): IToken[] => (ctx[key] ?? []) as IToken[];
export const tok = (ctx: Ctx, key: string): IToken | undefined => toks(ctx, key)[0];
export const nodes = (ctx: Ctx, key: string): CstNode[] => (ctx[key] ?? []) as CstNode[];
export const node = (ctx: Ctx, key: string): CstNode | undefined => nodes(ctx, key)[0];

export const tokPos = (t: IToken): Pos => ({ line: t.startLine ?? 1, column: t.startColumn ?? 1 });
export const nodePos = (n: CstNode): Pos => ({ line: n.location?.startLine ?? 1, column: n.location?.startColumn ?? 1 });

export function syntaxError(message: string, t: IToken): RingqlError {
  const p = tokPos(t);
  return new RingqlError('syntax_error', `Syntax error at line ${p.line}, column ${p.column}: ${message}`, { line: p.line, column: p.column });
}

/** Bare `CURRENT_TIMESTAMP` is the call `CURRENT_TIMESTAMP()`. */
export const NILADIC = new Set(['CURRENT_TIMESTAMP', 'CURRENT_DATE', 'CURRENT_DATETIME', 'CURRENT_TIME']);
export const SUBSCRIPT_MODES: Record<string, Subscript['mode']> = {
  OFFSET: 'offset', SAFE_OFFSET: 'safe_offset', ORDINAL: 'ordinal', SAFE_ORDINAL: 'safe_ordinal',
};
export const COMPARISON_OPS = new Map<unknown, BinaryOp>([
  [T.Equals, '='], [T.NotEq, '!='], [T.Less, '<'], [T.LessEq, '<='], [T.Greater, '>'], [T.GreaterEq, '>='],
]);
export const ARITHMETIC_OPS = new Map<unknown, BinaryOp>([
  [T.Plus, '+'], [T.Minus, '-'], [T.Star, '*'], [T.Slash, '/'], [T.Concat, '||'], [T.ShiftLeft, '<<'], [T.Greater, '>>'],
  [T.Amp, '&'], [T.Caret, '^'], [T.Pipe, '|'],
]);
/** BigQuery precedence of the operators in `arith`, tightest highest; all associate to the left. */
export const ARITH_PREC: Partial<Record<BinaryOp, number>> = { '*': 6, '/': 6, '||': 6, '+': 5, '-': 5, '<<': 4, '>>': 4, '&': 3, '^': 2, '|': 1 };

export interface NamePart {
  text: string;
  quoted: boolean;
}
export interface PathValue {
  parts: string[];
  quoted: boolean[];
  pos: Pos;
}
export interface CallArgs {
  args: Expr[];
  star: boolean;
  distinct: boolean;
  nulls?: 'ignore' | 'respect';
  orderBy?: OrderItem[];
  limit?: Expr;
}
export type ParenContent = { query: Query } | { exprs: Expr[] };

export function nameOf(t: IToken): NamePart {
  if (t.tokenType !== T.BacktickIdent) return { text: t.image, quoted: false };
  const d = decodeBacktick(t.image);
  if ('error' in d) throw syntaxError(d.error, t);
  return { text: d.value, quoted: true };
}

export function numberLiteral(t: IToken): Literal {
  const s = t.image;
  const pos = tokPos(t);
  if (/^0[xX]/.test(s)) {
    const n = parseInt(s.slice(2), 16);
    return { kind: 'literal', type: 'int', value: Number.isSafeInteger(n) ? n : s, pos };
  }
  if (/[.eE]/.test(s)) return { kind: 'literal', type: 'float', value: Number(s), pos };
  const n = Number(s);
  return { kind: 'literal', type: 'int', value: Number.isSafeInteger(n) ? n : s, pos };
}

export function stringValue(t: IToken): { value: string; bytes: boolean } {
  const d = decodeStringLiteral(t.image);
  if ('error' in d) throw syntaxError(d.error, t);
  return d;
}

/** The NumberLit of a `unary` node that is just a number (no parentheses, no postfix). */
export function bareNumber(unaryNode: CstNode): IToken | undefined {
  const post = node(unaryNode.children, 'postfix');
  if (!post || nodes(post.children, 'postfixOp').length) return undefined;
  return tok(node(post.children, 'primary')!.children, 'NumberLit');
}

export function negate(lit: Literal, pos: Pos): Literal | undefined {
  const v = lit.value;
  if (typeof v === 'number') return v === 0 ? undefined : { ...lit, value: -v, pos };
  if (typeof v === 'string' && /^\d+$/.test(v)) return { ...lit, value: `-${v}`, pos };
  return undefined;
}

/** A Call node from a function name and its parsed arguments. */
export function makeCall(name: string, safe: boolean, a: CallArgs, pos: Pos): Call {
  const c: Call = { kind: 'call', name, args: a.args };
  if (a.star) c.star = true;
  if (a.distinct) c.distinct = true;
  if (safe) c.safe = true;
  if (a.nulls) c.nulls = a.nulls;
  if (a.orderBy) c.orderBy = a.orderBy;
  if (a.limit) c.limit = a.limit;
  c.pos = pos;
  return c;
}
