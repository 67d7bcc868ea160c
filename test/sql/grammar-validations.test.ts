// The SQL and LQL parsers and lexers skip Chevrotain's grammar validations at start (half of the parsers'
// construction's CPU, most of the lexers'); this test runs them, so a grammar change that makes a rule
// ambiguous or a token unreachable still fails here.

import { describe, expect, it } from 'vitest';
import { CstParser, Lexer, createToken } from '../../grammar/chevrotain-runtime.ts';
import { SqlParser } from '../../grammar/sql-parser.ts';
import { LqlParser } from '../../grammar/lql-parser.ts';
import { newSqlLexer } from '../../grammar/sql-tokens.ts';
import { newLqlLexer } from '../../grammar/lql-tokens.ts';

const A = createToken({ name: 'A', pattern: /a/ });
/** Never matched: `a` before it takes every `aa` (what the lexer's validations call unreachable). */
const AA = createToken({ name: 'AA', pattern: /aa/ });

/** Two alternatives that both start with A: ambiguous, which only the validations notice. */
class AmbiguousParser extends CstParser {
  constructor(validate: boolean) {
    super([A], { skipValidations: !validate });
    this.performSelfAnalysis();
  }

  public top = this.RULE('top', () => {
    this.OR([{ ALT: () => this.CONSUME(A) }, { ALT: () => this.CONSUME2(A) }]);
  });
}

describe('grammar validations', () => {
  it('pass for the SQL and the LQL grammar', () => {
    expect(() => new SqlParser(true)).not.toThrow();
    expect(() => new LqlParser(true)).not.toThrow();
  });

  it('pass for the SQL and the LQL lexer', () => {
    expect(() => newSqlLexer(true)).not.toThrow();
    expect(() => newLqlLexer(true)).not.toThrow();
  });

  it('are what catches an unreachable token (skipped, the lexer constructs)', () => {
    expect(() => new Lexer([A, AA], { skipValidations: false })).toThrow(/unreachable/i);
    expect(() => new Lexer([A, AA], { skipValidations: true })).not.toThrow();
  });

  it('are what catches an ambiguous grammar (skipped, it constructs)', () => {
    expect(() => new AmbiguousParser(true)).toThrow(/Ambiguous/i);
    expect(() => new AmbiguousParser(false)).not.toThrow();
  });
});
