// Turns a Chevrotain recognition error into one short, positioned syntax_error: the distinct
// tokens that could come next (ordered for people, trimmed), what was found, and a hint when cheap.

import { EOF, createTokenInstance } from '../../grammar/chevrotain-runtime.ts';
import type { IRecognitionException, IToken, TokenType } from 'chevrotain';
import { sqlParser, tokenLabel } from '../../grammar/sql-parser.ts';
import * as T from '../../grammar/sql-tokens.ts';
import { RingqlError } from '../core/errors.ts';

/** Clause words first (in clause order), then other words and punctuation, then operands; operators collapse into one entry. */
const LEADING: TokenType[] = [
  T.Select, T.With, T.From, T.Where, T.Group, T.Having, T.Qualify, T.Order, T.Limit, T.Union, T.Intersect, T.Except,
  T.Join, T.On, T.Using, T.As, T.Then, T.When, T.Else, T.End, T.By,
];
const OPERANDS: ReadonlySet<TokenType> = new Set([T.Identifier, T.BacktickIdent, T.NumberLit, T.StringLit, T.Param]);
const OPERATORS: ReadonlySet<TokenType> = new Set([
  T.Plus, T.Minus, T.Star, T.Slash, T.Concat, T.Pipe, T.Amp, T.Caret, T.Tilde, T.ShiftLeft, T.NotEq, T.LessEq, T.GreaterEq,
  T.Less, T.Greater, T.Equals, T.Dot, T.LBracket, T.And, T.Or, T.Is, T.In, T.Between, T.Like,
]);
/** Tokens that can start an expression; when many are possible the message says "an expression". */
const EXPRESSION_START: ReadonlySet<TokenType> = new Set([
  T.NumberLit, T.StringLit, T.Param, T.Identifier, T.BacktickIdent, T.True, T.False, T.Null, T.Case, T.Cast, T.SafeCast,
  T.Extract, T.Exists, T.ArrayKw, T.Struct, T.LParen, T.LBracket, T.Left, T.Right, T.Minus, T.Plus, T.Tilde, T.Not,
]);
const MAX_EXPECTED = 8;

/** A syntax_error RingqlError whose message leads with the position. */
export function syntaxErrorAt(line: number, column: number, message: string): RingqlError {
  return new RingqlError('syntax_error', `Syntax error at line ${line}, column ${column}: ${message}`, { line, column });
}

function describeExpected(all: TokenType[]): string {
  let types = all;
  let expression = false;
  if (all.includes(T.Identifier) && all.includes(T.NumberLit)) {
    types = all.filter((t) => !EXPRESSION_START.has(t));
    expression = true;
  }
  const lead = (t: TokenType): number => LEADING.indexOf(t);
  const rank = (t: TokenType): number => (lead(t) >= 0 ? lead(t) : OPERATORS.has(t) ? 300 : OPERANDS.has(t) ? 200 : 100);
  const sorted = [...new Set(types)].filter((t) => t !== T.Keyword).sort((a, b) => rank(a) - rank(b));
  const labels = [...new Set(sorted.map((t) => (OPERATORS.has(t) ? 'an operator' : tokenLabel(t))))];
  if (expression) labels.unshift('an expression');
  return labels.length > MAX_EXPECTED ? `${labels.slice(0, MAX_EXPECTED).join(', ')}, ...` : labels.join(', ');
}

function describeFound(t: IToken): string {
  if (t.tokenType === EOF) return 'end of input';
  return JSON.stringify(t.image.length > 40 ? `${t.image.slice(0, 40)}…` : t.image);
}

/** The error message provider spells `expected A, B but found X`; recover the token types from it. */
function expectedFromMessage(message: string): TokenType[] | undefined {
  const m = /^expected (.*) but found /s.exec(message);
  if (!m) return undefined;
  const labels = new Set(m[1]!.split(', '));
  const types = T.sqlTokens.filter((t) => labels.has(tokenLabel(t)));
  return types.length ? types : undefined;
}

/** Clause words a misspelling of which (`FORM`) is read as an alias, so the error shows up one token later. */
const CLAUSE_WORDS = ['SELECT', 'FROM', 'WHERE', 'GROUP', 'HAVING', 'QUALIFY', 'ORDER', 'LIMIT', 'UNION', 'JOIN', 'CROSS', 'INNER', 'LEFT', 'UNNEST'];

/** At most one edit (insert, delete, substitute, swap neighbours) apart. */
function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** When the token before the failure is a bare alias that looks like a misspelt clause word, blame it. */
function misspeltAlias(tokens: IToken[], idx: number): number | undefined {
  const prev = tokens[idx - 1];
  if (!prev || prev.tokenType !== T.Identifier || tokens[idx - 2]?.tokenType === T.As) return undefined;
  const word = prev.image.toUpperCase();
  return word.length >= 4 && CLAUSE_WORDS.some((w) => oneEditApart(word, w)) ? idx - 1 : undefined;
}

/** Content assist walks the grammar from the start, which costs a lot on long or deeply nested prefixes. */
const ASSIST_MAX_TOKENS = 250;
const ASSIST_MAX_DEPTH = 16;
const CLAUSE_STARTS: ReadonlySet<TokenType> = new Set([T.From, T.Where, T.Group, T.Having, T.Qualify, T.Order, T.Limit]);

const fake = (type: TokenType, image: string): IToken => createTokenInstance(type, image, NaN, NaN, NaN, NaN, NaN, NaN);

/**
 * A prefix with the same continuations as `tokens[0, idx)` that is cheap to assist: the whole
 * prefix when short, else the current SELECT or clause of the outermost query (`SELECT 1 WHERE ...`).
 */
function assistPrefix(tokens: IToken[], idx: number): IToken[] | undefined {
  let prefix = tokens.slice(0, idx);
  if (prefix.length > ASSIST_MAX_TOKENS) {
    let depth = 0;
    let cut = -1;
    for (let i = 0; i < idx; i++) {
      const t = tokens[i]!.tokenType;
      if (t === T.LParen || t === T.LBracket || t === T.Case) depth++;
      else if (t === T.RParen || t === T.RBracket || t === T.End) depth--;
      else if (depth === 0 && (t === T.Select || CLAUSE_STARTS.has(t))) cut = i;
    }
    if (cut < 0) return undefined;
    const rest = tokens.slice(cut, idx);
    prefix = tokens[cut]!.tokenType === T.Select ? rest : [fake(T.Select, 'SELECT'), fake(T.NumberLit, '1'), ...rest];
    if (prefix.length > ASSIST_MAX_TOKENS) return undefined;
  }
  let depth = 0;
  for (const t of prefix) {
    if (t.tokenType === T.LParen || t.tokenType === T.LBracket || t.tokenType === T.Case) {
      if (++depth > ASSIST_MAX_DEPTH) return undefined;
    } else if (t.tokenType === T.RParen || t.tokenType === T.RBracket || t.tokenType === T.End) depth--;
  }
  return prefix;
}

/**
 * Next-token suggestions. Content assist ignores gates, so it would also follow `a b` as if `a`
 * were INTERVAL or TIMESTAMP; drop those paths unless such a word was actually written.
 */
function assist(prefix: IToken[]): TokenType[] {
  const words = new Set(prefix.filter((t) => t.tokenType === T.Identifier).map((t) => t.image.toUpperCase()));
  const typed = ['TIMESTAMP', 'DATETIME', 'DATE', 'TIME', 'NUMERIC', 'BIGNUMERIC', 'JSON'].some((w) => words.has(w));
  return sqlParser
    .computeContentAssist('statement', prefix)
    .filter((s) => (words.has('INTERVAL') || !s.ruleStack.includes('interval')) && (typed || !s.ruleStack.includes('typedLiteral')))
    .map((s) => s.nextTokenType);
}

/** `from function-relay-logs` fails at the first dash; say how to write such a name. */
function dashedNameHint(tokens: IToken[], idx: number): string {
  const [prev, dash] = [tokens[idx - 1], tokens[idx]];
  if (!prev || dash?.tokenType !== T.Minus || prev.tokenType !== T.Identifier || prev.endOffset! + 1 !== dash.startOffset) return '';
  let end = idx;
  while (tokens[end]?.tokenType === T.Minus && tokens[end + 1]?.tokenType === T.Identifier && tokens[end]!.endOffset! + 1 === tokens[end + 1]!.startOffset) end += 2;
  if (end === idx) return '';
  const name = tokens.slice(idx - 1, end).map((t) => t.image).join('');
  return ` (a name with dashes needs backticks: \`${name}\`)`;
}

/** The parser's first error as a short positioned message: what was expected, what was found. */
export function parseError(e: IRecognitionException, tokens: IToken[]): RingqlError {
  let found = e.token;
  let idx = found.tokenType === EOF ? tokens.length : tokens.indexOf(found);
  const blamed = e.name === 'NotAllInputParsedException' || found.tokenType === EOF ? misspeltAlias(tokens, idx) : undefined;
  if (blamed !== undefined) {
    idx = blamed;
    found = tokens[idx]!;
  }
  const last = tokens[tokens.length - 1];
  const line = found.tokenType === EOF ? (last?.endLine ?? 1) : found.startLine!;
  const column = found.tokenType === EOF ? (last?.endColumn ?? 0) + 1 : found.startColumn!;
  if (found.tokenType === T.Over) return syntaxErrorAt(line, column, 'window functions (OVER) are not supported');
  let expected = e.name === 'NotAllInputParsedException' || blamed !== undefined ? undefined : expectedFromMessage(e.message);
  if (idx === 0) expected = [T.Select, T.With, T.LParen];
  if (!expected) {
    const prefix = assistPrefix(tokens, idx);
    expected = prefix ? assist(prefix) : [];
  }
  const what = expected.length ? `expected ${describeExpected(expected)} but found ${describeFound(found)}` : `unexpected ${describeFound(found)}`;
  return syntaxErrorAt(line, column, what + dashedNameHint(tokens, idx));
}
