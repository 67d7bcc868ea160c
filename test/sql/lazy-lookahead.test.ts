// grammar/lazy-lookahead.ts: Chevrotain's LL(k) decisions built at first use decide as the eager ones do —
// same CSTs, same errors — for every DSL method, and its validations still catch an ambiguous grammar.

import { describe, expect, it } from 'vitest';
import type { CstNode, ILookaheadStrategy, IToken } from 'chevrotain';
import { CstParser, Lexer, createToken } from '../../grammar/chevrotain-runtime.ts';
import { lazyLookahead } from '../../grammar/lazy-lookahead.ts';

const WS = createToken({ name: 'WS', pattern: /\s+/, group: Lexer.SKIPPED });
const A = createToken({ name: 'A', pattern: /a/ });
const B = createToken({ name: 'B', pattern: /b/ });
const C = createToken({ name: 'C', pattern: /c/ });
const Comma = createToken({ name: 'Comma', pattern: /,/ });
const Semi = createToken({ name: 'Semi', pattern: /;/ });
const TOKENS = [WS, A, B, C, Comma, Semi];
const lexer = new Lexer(TOKENS);

/** A grammar with an LL(2) and an LL(3) alternation, OPTION, MANY, AT_LEAST_ONE and both separated repetitions. */
class Grammar extends CstParser {
  constructor(strategy: ILookaheadStrategy | undefined, validate = false) {
    super(TOKENS, { maxLookahead: 3, ...(strategy ? { lookaheadStrategy: strategy } : {}), skipValidations: !validate });
    this.performSelfAnalysis();
  }

  public top = this.RULE('top', () => {
    this.AT_LEAST_ONE_SEP({ SEP: Semi, DEF: () => this.SUBRULE(this.stmt) });
  });

  private stmt = this.RULE('stmt', () => {
    this.OR([
      { ALT: () => { this.CONSUME(A); this.CONSUME(B); this.OPTION(() => this.CONSUME(C)); } },
      { ALT: () => { this.CONSUME2(A); this.CONSUME2(C); this.MANY(() => this.CONSUME2(B)); } },
      { ALT: () => { this.CONSUME3(B); this.CONSUME6(B); this.CONSUME3(A); } },
      { ALT: () => { this.CONSUME4(B); this.CONSUME7(B); this.CONSUME4(C); this.MANY_SEP({ SEP: Comma, DEF: () => this.CONSUME5(A) }); } },
      { ALT: () => { this.CONSUME5(C); this.AT_LEAST_ONE(() => this.CONSUME5(B)); } },
    ]);
  });
}

/** A CST as plain data: rule names, and token images in child order by key. */
function plain(node: CstNode): unknown {
  return {
    name: node.name,
    children: Object.fromEntries(Object.entries(node.children).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) =>
      [k, v.map((c) => ('image' in c ? (c as IToken).image : plain(c as CstNode)))])),
  };
}

function parse(p: Grammar, text: string): { cst: unknown; errors: string[] } {
  p.input = lexer.tokenize(text).tokens;
  const cst = p.top();
  return { cst: p.errors.length ? null : plain(cst), errors: p.errors.map((e) => `${e.name}: ${e.message}`) };
}

const INPUTS = [
  'ab', 'abc', 'ac', 'acbbb', 'bba', 'bbc', 'bbca', 'bbca,a,a', 'cb', 'cbbb', 'ab;ac;bba;bbc a,a;cbb',
  '', 'a', 'b', 'bb', 'bbb', 'c', 'abcc', 'bbca,', 'ab;', 'ab;;ac', 'bbca,,a', 'ca', 'aa',
];

describe('lazy lookahead', () => {
  it('decides as the eager LL(k) strategy: the same CSTs and the same errors', () => {
    const eager = new Grammar(undefined), lazy = new Grammar(lazyLookahead(3));
    // Twice over the inputs: the second pass uses the functions the first one built.
    for (let round = 0; round < 2; round++) {
      for (const text of INPUTS) expect(parse(lazy, text), text).toEqual(parse(eager, text));
    }
    expect(parse(lazy, 'ab;ac;bba;bbc a,a;cbb').errors).toEqual([]);
    expect(parse(lazy, 'bbb').errors[0]).toMatch(/NoViableAltException/);
  });

  it('still validates: an ambiguous alternation is reported', () => {
    class Ambiguous extends CstParser {
      constructor() {
        super([A], { lookaheadStrategy: lazyLookahead(2), skipValidations: false });
        this.performSelfAnalysis();
      }

      public top = this.RULE('top', () => {
        this.OR([{ ALT: () => this.CONSUME(A) }, { ALT: () => this.CONSUME2(A) }]);
      });
    }
    expect(() => new Ambiguous()).toThrow(/ambiguous/i);
    expect(() => new Grammar(lazyLookahead(3), true)).not.toThrow();
  });
});
