// The SQL and LQL parsers skip Chevrotain's grammar validations at start (half of their construction's
// CPU); this test runs them, so a grammar change that makes a rule ambiguous still fails here.

import { describe, expect, it } from 'vitest';
import { CstParser, createToken } from '../../grammar/chevrotain-runtime.ts';
import { SqlParser } from '../../grammar/sql-parser.ts';
import { LqlParser } from '../../grammar/lql-parser.ts';

const A = createToken({ name: 'A', pattern: /a/ });

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

  it('are what catches an ambiguous grammar (skipped, it constructs)', () => {
    expect(() => new AmbiguousParser(true)).toThrow(/Ambiguous/i);
    expect(() => new AmbiguousParser(false)).not.toThrow();
  });
});
