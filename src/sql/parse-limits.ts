// Input bounds checked before and after parsing, so hostile SQL gets a clean value_too_large error
// instead of a stack overflow: nesting depth on the token stream, then depth of the built AST.

import type { IToken, TokenType } from 'chevrotain';
import * as T from '../../grammar/sql-tokens.ts';
import { RingqlError } from '../core/errors.ts';

const OPENERS: ReadonlySet<TokenType> = new Set([T.LParen, T.LBracket, T.Case]);
const CLOSERS: ReadonlySet<TokenType> = new Set([T.RParen, T.RBracket, T.End]);
/** Tokens after which `-`, `+`, `~` are binary rather than prefix operators. */
const OPERAND_END: ReadonlySet<TokenType> = new Set([
  T.Identifier, T.BacktickIdent, T.NumberLit, T.StringLit, T.Param, T.RParen, T.RBracket, T.True, T.False, T.Null, T.End,
]);

function tooDeep(limit: number, t: IToken | undefined): RingqlError {
  const line = t?.startLine ?? 1;
  const column = t?.startColumn ?? 1;
  return new RingqlError(
    'value_too_large',
    `The query nests deeper than the limit of ${limit} levels (parentheses, subqueries, CASE, prefix operators) at line ${line}, column ${column}`,
    { line, column, limit },
  );
}

/**
 * Effective nesting depth of a token stream: every open `(`, `[` or CASE is a level, and so is
 * each prefix operator in a run (`NOT NOT -x`) that is still open when a bracket opens inside it.
 */
export function checkTokenDepth(tokens: IToken[], maxDepth: number): void {
  const stack: number[] = [];
  let depth = 0;
  let run = 0;
  let prev: IToken | undefined;
  for (const t of tokens) {
    const type = t.tokenType;
    const prefix =
      (type === T.Not && prev?.tokenType !== T.Is) ||
      ((type === T.Minus || type === T.Plus || type === T.Tilde) && !(prev && OPERAND_END.has(prev.tokenType)));
    if (prefix) {
      run++;
      if (depth + run > maxDepth) throw tooDeep(maxDepth, t);
    } else if (OPENERS.has(type)) {
      stack.push(run + 1);
      depth += run + 1;
      run = 0;
      if (depth > maxDepth) throw tooDeep(maxDepth, t);
    } else {
      if (CLOSERS.has(type) && stack.length) depth -= stack.pop()!;
      run = 0;
    }
    prev = t;
  }
}

/** Depth of an AST (long operator chains nest without parentheses); iterative, so it cannot overflow. */
export function astDepth(root: unknown): number {
  let max = 0;
  const work: [unknown, number][] = [[root, 1]];
  while (work.length) {
    const [v, d] = work.pop()!;
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === 'object') work.push([x, d]);
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    for (const k in v as Record<string, unknown>) {
      if (k === 'pos') continue;
      const x = (v as Record<string, unknown>)[k];
      if (x !== null && typeof x === 'object') work.push([x, d + 1]);
    }
  }
  return max;
}

export function checkAstDepth(root: unknown, limit: number, at: { line: number; column: number } | undefined): void {
  if (astDepth(root) <= limit) return;
  const line = at?.line ?? 1;
  const column = at?.column ?? 1;
  throw new RingqlError(
    'value_too_large',
    `The query's expressions nest deeper than the limit of ${limit} levels (a very long chain of operators?) at line ${line}, column ${column}`,
    { line, column, limit },
  );
}
