// SQL text → typed AST statements (SPEC §7): bounds the input, lexes, splits on top-level `;`,
// parses each query with the one reused parser and turns every failure into a positioned RingqlError.

import { engineCounters } from '../core/engine-counters.ts';
import type { IToken } from 'chevrotain';
import { sqlParser } from '../../grammar/sql-parser.ts';
import * as T from '../../grammar/sql-tokens.ts';
import { RingqlError } from '../core/errors.ts';
import type { Query, Statement } from './ast.ts';
import { astBuilder } from './cst-to-ast.ts';
import { parseError, syntaxErrorAt as at } from './parse-errors.ts';
import { checkAstDepth, checkTokenDepth } from './parse-limits.ts';

export interface ParseOptions {
  /** Longest accepted text, in characters (default 100 000). */
  maxLength?: number;
  /** Deepest nesting of parentheses, subqueries, CASE and prefix operators (default 64). */
  maxDepth?: number;
}

export const DEFAULT_MAX_LENGTH = 100_000;
export const DEFAULT_MAX_DEPTH = 64;

/** Statement verbs that are not queries; the statement is kept only as `{kind:'other', verb}`. */
const OTHER_VERBS = new Set([
  'INSERT', 'UPDATE', 'DELETE', 'MERGE', 'CREATE', 'DROP', 'ALTER', 'TRUNCATE', 'GRANT', 'REVOKE', 'CALL', 'DECLARE', 'SET',
  'BEGIN', 'END', 'COMMIT', 'ROLLBACK', 'EXECUTE', 'EXPORT', 'LOAD', 'ASSERT', 'IF', 'ELSE', 'ELSEIF', 'LOOP', 'WHILE', 'REPEAT',
  'FOR', 'BREAK', 'LEAVE', 'CONTINUE', 'ITERATE', 'RETURN', 'RAISE', 'EXCEPTION', 'UNDROP', 'DESCRIBE', 'SHOW', 'EXPLAIN',
  'USE', 'REPLACE', 'UPSERT', 'COPY', 'VACUUM', 'ANALYZE', 'LOCK', 'PREPARE', 'DEALLOCATE', 'START', 'SAVEPOINT',
]);

function lex(text: string): IToken[] {
  const r = T.sqlLexer.tokenize(text);
  if (r.errors.length) {
    const e = r.errors[0]!;
    throw at(e.line ?? 1, e.column ?? 1, `unexpected character ${JSON.stringify(text.slice(e.offset, e.offset + 1))}`);
  }
  for (const t of r.tokens) {
    const problem =
      t.tokenType === T.UnterminatedString ? 'unterminated string literal'
      : t.tokenType === T.UnterminatedBacktick ? 'unterminated quoted name (missing closing backtick)'
      : t.tokenType === T.UnterminatedComment ? 'unterminated comment (missing */)'
      : undefined;
    if (problem) throw at(t.startLine!, t.startColumn!, problem);
  }
  return r.tokens;
}

/** Splits on `;` outside brackets; empty statements (a trailing `;`) are dropped. */
function splitStatements(tokens: IToken[]): IToken[][] {
  const out: IToken[][] = [];
  let cur: IToken[] = [];
  let depth = 0;
  for (const t of tokens) {
    if (t.tokenType === T.LParen || t.tokenType === T.LBracket) depth++;
    else if ((t.tokenType === T.RParen || t.tokenType === T.RBracket) && depth > 0) depth--;
    if (t.tokenType === T.Semicolon && depth === 0) {
      if (cur.length) out.push(cur);
      cur = [];
    } else cur.push(t);
  }
  if (cur.length) out.push(cur);
  return out;
}

function parseOne(tokens: IToken[], maxDepth: number): Query {
  sqlParser.input = tokens;
  const cst = sqlParser.statement();
  if (sqlParser.errors.length) throw parseError(sqlParser.errors[0]!, tokens);
  const q = astBuilder.visit(cst) as Query;
  checkAstDepth(q, maxDepth * 16, q.pos);
  return q;
}

/** Every `;`-separated statement of `text`; non-queries come back as `{kind:'other', verb}`. */
export function parseSql(text: string, opts: ParseOptions = {}): Statement[] {
  engineCounters.parses++;
  const maxLength = opts.maxLength ?? DEFAULT_MAX_LENGTH;
  const maxDepth = opts.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (text.length > maxLength) {
    throw new RingqlError('value_too_large', `The SQL text is ${text.length} characters long; the limit is ${maxLength}`, { limit: maxLength });
  }
  const tokens = lex(text);
  checkTokenDepth(tokens, maxDepth);
  return splitStatements(tokens).map((stmt): Statement => {
    const first = stmt[0]!;
    const verb = first.image.toUpperCase();
    if (first.tokenType !== T.LParen && OTHER_VERBS.has(verb)) {
      return { kind: 'other', verb, pos: { line: first.startLine!, column: first.startColumn! } };
    }
    return parseOne(stmt, maxDepth);
  });
}

/** Exactly one statement, which must be a query. */
export function parseQuery(text: string, opts: ParseOptions = {}): Query {
  const stmts = parseSql(text, opts);
  if (stmts.length !== 1) throw at(1, 1, `expected exactly one query but found ${stmts.length} statements`);
  const s = stmts[0]!;
  if (s.kind !== 'query') {
    throw at(s.pos?.line ?? 1, s.pos?.column ?? 1, `expected a query (SELECT or WITH) but found a ${s.verb} statement`);
  }
  return s;
}
