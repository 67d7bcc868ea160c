// Chevrotain CstParser of the BigQuery SQL subset (SPEC §7): a pure grammar, no embedded actions.
// One instance is reused; src/sql/parse.ts feeds it one statement's tokens and reads the CST.

import { CstParser, EOF } from './chevrotain-runtime.ts';
import { lazyLookahead } from './lazy-lookahead.ts';
import type { IParserErrorMessageProvider, IToken, TokenType } from 'chevrotain';
import * as T from './sql-tokens.ts';

// Option objects come from these helpers so each closure is a plain call argument: run under tsx
// (keepNames), every inline `ALT: () => ...` would get a naming call per rule invocation (~40% of parse time).
const alt = (ALT: () => unknown): { ALT: () => unknown } => ({ ALT });
const gatedAlt = (GATE: () => boolean, ALT: () => unknown): { GATE: () => boolean; ALT: () => unknown } => ({ GATE, ALT });
const gated = <R>(GATE: () => boolean, DEF: () => R): { GATE: () => boolean; DEF: () => R } => ({ GATE, DEF });
const sep = (SEP: TokenType, DEF: () => void): { SEP: TokenType; DEF: () => void } => ({ SEP, DEF });

const isWord = (t: IToken, ...words: string[]): boolean =>
  t.tokenType === T.Identifier && words.includes(t.image.toUpperCase());

const TYPED_LITERAL_WORDS = ['TIMESTAMP', 'DATETIME', 'DATE', 'TIME', 'NUMERIC', 'BIGNUMERIC', 'JSON'];

/** Tokens after which a select list has ended, so a comma before them is a trailing comma. */
const SELECT_LIST_END: ReadonlySet<TokenType> = new Set([
  T.From, T.Where, T.Group, T.Having, T.Qualify, T.Order, T.Limit, T.Union, T.Intersect, T.Except, T.RParen, T.Semicolon, EOF,
]);

/** Names a token type the way a person reads it: FROM, ',', name, end of input. */
export function tokenLabel(t: TokenType): string {
  if (t === EOF) return 'end of input';
  return t.LABEL ?? t.name;
}
const found = (t: IToken): string => (t.tokenType === EOF ? 'end of input' : `"${t.image}"`);
const firsts = (paths: TokenType[][][]): TokenType[] => paths.flat().map((p) => p[0]).filter((t): t is TokenType => !!t);

/**
 * Short messages: "expected X, Y but found Z". The expectation lists here are the raw ones;
 * src/sql/parse.ts reorders and trims them (it recomputes them via content assist).
 */
const messages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: ({ expected, actual }) => `expected ${tokenLabel(expected)} but found ${found(actual)}`,
  buildNotAllInputParsedMessage: ({ firstRedundant }) => `unexpected ${found(firstRedundant)}`,
  buildNoViableAltMessage: ({ expectedPathsPerAlt, actual }) =>
    `expected ${[...new Set(firsts(expectedPathsPerAlt).map(tokenLabel))].join(', ')} but found ${found(actual[0]!)}`,
  buildEarlyExitMessage: ({ expectedIterationPaths, actual }) =>
    `expected ${[...new Set(firsts([expectedIterationPaths]).map(tokenLabel))].join(', ')} but found ${found(actual[0]!)}`,
};

export class SqlParser extends CstParser {
  /**
   * `validate`: run Chevrotain's grammar checks (ambiguities, left recursion, ...), about half of the
   * construction's CPU (~65 ms). The one instance skips them; test/sql/grammar-validations.test.ts runs them.
   */
  constructor(validate = false) {
    super(T.sqlTokens, { maxLookahead: 3, lookaheadStrategy: lazyLookahead(3), nodeLocationTracking: 'full', recoveryEnabled: false, errorMessageProvider: messages, skipValidations: !validate });
    this.performSelfAnalysis();
  }

  /** After `(` (LA(1) is the first inner token): does a query follow? `((SELECT 1) + 1)` is an expression. */
  private queryAhead(): boolean {
    let i = 1;
    while (this.LA(i).tokenType === T.LParen) i++;
    const t = this.LA(i).tokenType;
    if (t !== T.Select && t !== T.With) return false;
    return i === 1 || this.BACKTRACK(this.queryThenClose).call(this);
  }

  /** At `(` in FROM: a subquery (`(SELECT ...)`, `((SELECT ...) UNION ALL ...)`) rather than a parenthesised join? */
  private subqueryItemAhead(): boolean {
    let i = 2;
    while (this.LA(i).tokenType === T.LParen) i++;
    const t = this.LA(i).tokenType;
    if (t !== T.Select && t !== T.With) return false;
    return i === 2 || this.BACKTRACK(this.parenQuery).call(this);
  }

  private intervalAhead(): boolean {
    return isWord(this.LA(1), 'INTERVAL') && this.BACKTRACK(this.interval).call(this);
  }

  /** `a.b.*`: names and dots up to a star. */
  private qualifiedStarAhead(): boolean {
    let i = 1;
    for (;;) {
      const t = this.LA(i).tokenType;
      if (t !== T.Identifier && t !== T.BacktickIdent && !(i > 1 && t.CATEGORIES?.includes(T.Keyword))) return false;
      if (this.LA(i + 1).tokenType !== T.Dot) return false;
      if (this.LA(i + 2).tokenType === T.Star) return true;
      i += 2;
    }
  }

  /** statement := query (a statement's tokens only; `;` splitting happens before) */
  public statement = this.RULE('statement', () => {
    this.SUBRULE(this.query);
  });

  /** query := [WITH cte, ...] setExpr [ORDER BY ...] [LIMIT n [OFFSET m]] */
  public query = this.RULE('query', () => {
    this.OPTION(() => this.SUBRULE(this.withClause));
    this.SUBRULE(this.setExpr);
    this.OPTION2(() => this.SUBRULE(this.orderBy));
    this.OPTION3(() => this.SUBRULE(this.limitClause));
  });

  /** Used only to look ahead: a query and the `)` that closes it. */
  /** `( query )`: only for look-ahead (subqueryItemAhead). */
  public parenQuery = this.RULE('parenQuery', () => {
    this.CONSUME(T.LParen);
    this.SUBRULE(this.query);
    this.CONSUME(T.RParen);
  });

  public queryThenClose = this.RULE('queryThenClose', () => {
    this.SUBRULE(this.query);
    this.CONSUME(T.RParen);
  });

  public withClause = this.RULE('withClause', () => {
    this.CONSUME(T.With);
    this.AT_LEAST_ONE_SEP(sep(T.Comma, () => this.SUBRULE(this.cte)));
  });

  public cte = this.RULE('cte', () => {
    this.SUBRULE(this.name);
    this.CONSUME(T.As);
    this.CONSUME(T.LParen);
    this.SUBRULE(this.query);
    this.CONSUME(T.RParen);
  });

  /** A plain or backtick name (CTE names, aliases, USING/EXCEPT lists). */
  public name = this.RULE('name', () => {
    this.OR([alt(() => this.CONSUME(T.Identifier)), alt(() => this.CONSUME(T.BacktickIdent))]);
  });

  /** setExpr := operand ((UNION|INTERSECT|EXCEPT) (ALL|DISTINCT) operand)* */
  public setExpr = this.RULE('setExpr', () => {
    this.SUBRULE(this.setOperand);
    this.MANY(() => {
      this.SUBRULE(this.setOperator);
      this.SUBRULE2(this.setOperand);
    });
  });

  public setOperator = this.RULE('setOperator', () => {
    this.OR([
      alt(() => this.CONSUME(T.Union)),
      alt(() => this.CONSUME(T.Intersect)),
      alt(() => this.CONSUME(T.Except)),
    ]);
    this.OR2([alt(() => this.CONSUME(T.All)), alt(() => this.CONSUME(T.Distinct))]);
  });

  public setOperand = this.RULE('setOperand', () => {
    this.OR([
      alt(() => this.SUBRULE(this.select)),
      alt(() => {
        this.CONSUME(T.LParen);
        this.SUBRULE(this.query);
        this.CONSUME(T.RParen);
      }),
    ]);
  });

  public select = this.RULE('select', () => {
    this.CONSUME(T.Select);
    this.OPTION(() => this.OR([alt(() => this.CONSUME(T.Distinct)), alt(() => this.CONSUME(T.All))]));
    this.SUBRULE(this.selectItem);
    this.MANY(gated(() => !SELECT_LIST_END.has(this.LA(2).tokenType), () => {
      this.CONSUME(T.Comma);
      this.SUBRULE2(this.selectItem);
    }));
    this.OPTION2(() => this.CONSUME2(T.Comma, { LABEL: 'trailingComma' }));
    this.OPTION3(() => this.SUBRULE(this.fromClause));
    this.OPTION4(() => {
      this.CONSUME(T.Where);
      this.SUBRULE(this.expression, { LABEL: 'where' });
    });
    this.OPTION5(() => {
      this.CONSUME(T.Group);
      this.CONSUME(T.By);
      this.AT_LEAST_ONE_SEP(sep(T.Comma, () => this.SUBRULE2(this.expression, { LABEL: 'groupBy' })));
    });
    this.OPTION6(() => {
      this.CONSUME(T.Having);
      this.SUBRULE3(this.expression, { LABEL: 'having' });
    });
    this.OPTION7(() => {
      this.CONSUME(T.Qualify);
      this.SUBRULE4(this.expression, { LABEL: 'qualify' });
    });
  });

  public selectItem = this.RULE('selectItem', () => {
    this.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        alt(() => {
          this.CONSUME(T.Star);
          this.OPTION(() => this.SUBRULE(this.starModifiers));
        }),
        gatedAlt(() => this.qualifiedStarAhead(), () => {
          this.SUBRULE(this.path);
          this.CONSUME(T.Dot);
          this.CONSUME2(T.Star);
          this.OPTION2(() => this.SUBRULE2(this.starModifiers));
        }),
        alt(() => {
          this.SUBRULE(this.expression);
          this.OPTION3(() => this.SUBRULE(this.alias));
        }),
      ],
    });
  });

  /** `* EXCEPT (a, b) REPLACE (expr AS a)` */
  public starModifiers = this.RULE('starModifiers', () => {
    this.OR([
      alt(() => {
        this.CONSUME(T.Except);
        this.CONSUME(T.LParen);
        this.AT_LEAST_ONE_SEP(sep(T.Comma, () => this.SUBRULE(this.name, { LABEL: 'except' })));
        this.CONSUME(T.RParen);
        this.OPTION(() => this.SUBRULE(this.starReplace));
      }),
      alt(() => this.SUBRULE2(this.starReplace)),
    ]);
  });

  public starReplace = this.RULE('starReplace', () => {
    this.CONSUME(T.Identifier, { LABEL: 'replaceWord' });
    this.CONSUME(T.LParen);
    this.AT_LEAST_ONE_SEP(sep(T.Comma, () => {
      this.SUBRULE(this.expression);
      this.CONSUME(T.As);
      this.SUBRULE(this.name);
    }));
    this.CONSUME(T.RParen);
  });

  /** `[AS] name` */
  public alias = this.RULE('alias', () => {
    this.OPTION(() => this.CONSUME(T.As));
    this.SUBRULE(this.name);
  });

  /** A dotted name; after a dot any word goes (`t.end`). All parts are labelled `part`, in order. */
  public path = this.RULE('path', () => {
    this.OR([
      alt(() => this.CONSUME(T.Identifier, { LABEL: 'part' })),
      alt(() => this.CONSUME(T.BacktickIdent, { LABEL: 'part' })),
    ]);
    this.MANY({
      // `t.*` ends the path before its dot (the select item consumes `.*`).
      GATE: () => this.LA(2).tokenType !== T.Star,
      DEF: () => {
        this.CONSUME(T.Dot);
        this.SUBRULE(this.fieldName);
      },
    });
  });

  public fieldName = this.RULE('fieldName', () => {
    this.OR([
      alt(() => this.CONSUME(T.Identifier, { LABEL: 'part' })),
      alt(() => this.CONSUME(T.BacktickIdent, { LABEL: 'part' })),
      alt(() => this.CONSUME(T.Keyword, { LABEL: 'part' })),
    ]);
  });

  public fromClause = this.RULE('fromClause', () => {
    this.CONSUME(T.From);
    this.SUBRULE(this.fromItem);
    this.MANY(() => this.SUBRULE(this.joinPart));
  });

  public joinPart = this.RULE('joinPart', () => {
    this.OR([
      alt(() => {
        this.CONSUME(T.Comma);
        this.SUBRULE(this.fromItem);
      }),
      alt(() => {
        this.OPTION(() => this.SUBRULE(this.joinType));
        this.CONSUME(T.Join);
        this.SUBRULE2(this.fromItem);
        this.OPTION2(() =>
          this.OR2([
            alt(() => {
              this.CONSUME(T.On);
              this.SUBRULE(this.expression, { LABEL: 'on' });
            }),
            alt(() => {
              this.CONSUME(T.Using);
              this.CONSUME(T.LParen);
              this.AT_LEAST_ONE_SEP(sep(T.Comma, () => this.SUBRULE(this.name, { LABEL: 'using' })));
              this.CONSUME(T.RParen);
            }),
          ]),
        );
      }),
    ]);
  });

  public joinType = this.RULE('joinType', () => {
    this.OR([
      alt(() => this.CONSUME(T.Cross)),
      alt(() => this.CONSUME(T.Inner)),
      alt(() => { this.CONSUME(T.Left); this.OPTION(() => this.CONSUME(T.Outer)); }),
      alt(() => { this.CONSUME(T.Right); this.OPTION2(() => this.CONSUME2(T.Outer)); }),
      alt(() => { this.CONSUME(T.Full); this.OPTION3(() => this.CONSUME3(T.Outer)); }),
    ]);
  });

  public fromItem = this.RULE('fromItem', () => {
    this.OR([
      alt(() => {
        this.CONSUME(T.Unnest);
        this.CONSUME(T.LParen);
        this.SUBRULE(this.expression);
        this.CONSUME(T.RParen);
        this.OPTION(() => this.SUBRULE(this.alias));
        this.OPTION2(() => {
          this.CONSUME(T.With);
          this.CONSUME(T.Identifier, { LABEL: 'offsetWord' });
          this.OPTION3(() => this.SUBRULE2(this.alias, { LABEL: 'offsetAlias' }));
        });
      }),
      gatedAlt(() => this.subqueryItemAhead(), () => {
        this.CONSUME2(T.LParen);
        this.SUBRULE(this.query);
        this.CONSUME2(T.RParen);
        this.OPTION4(() => this.SUBRULE3(this.alias));
      }),
      alt(() => this.SUBRULE(this.parenJoin)),
      alt(() => {
        this.SUBRULE(this.path);
        this.OPTION5(() => this.SUBRULE4(this.alias));
      }),
    ]);
  });

  /** `( a JOIN b USING (x) )`: a parenthesised join used as one FROM item. */
  public parenJoin = this.RULE('parenJoin', () => {
    this.CONSUME(T.LParen);
    this.SUBRULE(this.fromItem);
    this.AT_LEAST_ONE(() => this.SUBRULE(this.joinPart));
    this.CONSUME(T.RParen);
  });

  public orderBy = this.RULE('orderBy', () => {
    this.CONSUME(T.Order);
    this.CONSUME(T.By);
    this.AT_LEAST_ONE_SEP(sep(T.Comma, () => this.SUBRULE(this.orderItem)));
  });

  public orderItem = this.RULE('orderItem', () => {
    this.SUBRULE(this.expression);
    this.OPTION(() => this.OR([alt(() => this.CONSUME(T.Asc)), alt(() => this.CONSUME(T.Desc))]));
    this.OPTION2(() => {
      this.CONSUME(T.Nulls);
      this.CONSUME(T.Identifier, { LABEL: 'nullsWord' });
    });
  });

  public limitClause = this.RULE('limitClause', () => {
    this.CONSUME(T.Limit);
    this.SUBRULE(this.expression, { LABEL: 'limit' });
    this.OPTION(gated(() => isWord(this.LA(1), 'OFFSET'), () => {
      this.CONSUME(T.Identifier);
      this.SUBRULE2(this.expression, { LABEL: 'offset' });
    }));
  });

  // ─── Expressions, loosest first ────────────────────────────────────────────────────────────

  public expression = this.RULE('expression', () => {
    this.SUBRULE(this.andExpr, { LABEL: 'operand' });
    this.MANY(() => {
      this.CONSUME(T.Or);
      this.SUBRULE2(this.andExpr, { LABEL: 'operand' });
    });
  });

  public andExpr = this.RULE('andExpr', () => {
    this.SUBRULE(this.notExpr, { LABEL: 'operand' });
    this.MANY(() => {
      this.CONSUME(T.And);
      this.SUBRULE2(this.notExpr, { LABEL: 'operand' });
    });
  });

  public notExpr = this.RULE('notExpr', () => {
    this.OR([
      alt(() => {
        this.CONSUME(T.Not);
        this.SUBRULE(this.notExpr);
      }),
      alt(() => this.SUBRULE(this.comparison)),
    ]);
  });

  public comparison = this.RULE('comparison', () => {
    this.SUBRULE(this.arith);
    this.MANY(() => this.SUBRULE(this.comparisonTail));
  });

  public comparisonTail = this.RULE('comparisonTail', () => {
    this.OR([
      alt(() => {
        this.OR2([
          alt(() => this.CONSUME(T.Equals, { LABEL: 'op' })),
          alt(() => this.CONSUME(T.NotEq, { LABEL: 'op' })),
          alt(() => this.CONSUME(T.Less, { LABEL: 'op' })),
          alt(() => this.CONSUME(T.LessEq, { LABEL: 'op' })),
          alt(() => this.CONSUME(T.Greater, { LABEL: 'op' })),
          alt(() => this.CONSUME(T.GreaterEq, { LABEL: 'op' })),
        ]);
        this.SUBRULE(this.arith, { LABEL: 'right' });
      }),
      alt(() => {
        this.CONSUME(T.Is);
        this.OPTION(() => this.CONSUME(T.Not));
        this.OR3([
          alt(() => this.CONSUME(T.Null, { LABEL: 'isValue' })),
          alt(() => this.CONSUME(T.True, { LABEL: 'isValue' })),
          alt(() => this.CONSUME(T.False, { LABEL: 'isValue' })),
        ]);
      }),
      alt(() => {
        this.OPTION2(() => this.CONSUME2(T.Not));
        this.OR4([
          alt(() => {
            this.CONSUME(T.In);
            this.SUBRULE(this.inTarget);
          }),
          alt(() => {
            this.CONSUME(T.Between);
            this.SUBRULE2(this.arith, { LABEL: 'low' });
            this.CONSUME(T.And);
            this.SUBRULE3(this.arith, { LABEL: 'high' });
          }),
          alt(() => {
            this.CONSUME(T.Like);
            this.SUBRULE4(this.arith, { LABEL: 'pattern' });
          }),
        ]);
      }),
    ]);
  });

  /** `UNNEST(arr)`, `(query)` or `(a, b, ...)` after IN. */
  public inTarget = this.RULE('inTarget', () => {
    this.OR([
      alt(() => {
        this.CONSUME(T.Unnest);
        this.CONSUME(T.LParen);
        this.SUBRULE(this.expression, { LABEL: 'array' });
        this.CONSUME(T.RParen);
      }),
      alt(() => this.SUBRULE(this.parenBody)),
    ]);
  });

  /** `( query )` or `( expr, ... )`: shared by IN and by parenthesised primaries. */
  public parenBody = this.RULE('parenBody', () => {
    this.CONSUME(T.LParen);
    this.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        gatedAlt(() => this.queryAhead(), () => this.SUBRULE(this.query)),
        alt(() => this.AT_LEAST_ONE_SEP(sep(T.Comma, () => this.SUBRULE(this.expression)))),
      ],
    });
    this.CONSUME(T.RParen);
  });

  /**
   * Binary arithmetic, concatenation, bit and shift operators as one flat list (operand op operand
   * ...): src/sql/cst-to-ast.ts applies their precedence. One rule instead of six keeps every operand
   * from costing six nested rule calls. `>>` is two adjacent `>` tokens.
   */
  public arith = this.RULE('arith', () => {
    this.SUBRULE(this.unary, { LABEL: 'operand' });
    this.MANY(gated(() => {
      const a = this.LA(1);
      if (a.tokenType !== T.Greater) return true;
      const b = this.LA(2);
      return b.tokenType === T.Greater && b.startOffset === a.startOffset + 1;
    }, () => {
      this.OR([
        alt(() => this.CONSUME(T.Star, { LABEL: 'op' })),
        alt(() => this.CONSUME(T.Slash, { LABEL: 'op' })),
        alt(() => this.CONSUME(T.Concat, { LABEL: 'op' })),
        alt(() => this.CONSUME(T.Plus, { LABEL: 'op' })),
        alt(() => this.CONSUME(T.Minus, { LABEL: 'op' })),
        alt(() => this.CONSUME(T.ShiftLeft, { LABEL: 'op' })),
        alt(() => {
          this.CONSUME(T.Greater, { LABEL: 'op' });
          this.CONSUME2(T.Greater);
        }),
        alt(() => this.CONSUME(T.Amp, { LABEL: 'op' })),
        alt(() => this.CONSUME(T.Caret, { LABEL: 'op' })),
        alt(() => this.CONSUME(T.Pipe, { LABEL: 'op' })),
      ]);
      this.SUBRULE2(this.unary, { LABEL: 'operand' });
    }));
  });

  public unary = this.RULE('unary', () => {
    this.OR([
      alt(() => {
        this.OR2([
          alt(() => this.CONSUME(T.Minus, { LABEL: 'op' })),
          alt(() => this.CONSUME(T.Plus, { LABEL: 'op' })),
          alt(() => this.CONSUME(T.Tilde, { LABEL: 'op' })),
        ]);
        this.SUBRULE(this.unary);
      }),
      alt(() => this.SUBRULE(this.postfix)),
    ]);
  });

  /** primary followed by `[index]` and `.field`, each a postfixOp node so their order is kept. */
  public postfix = this.RULE('postfix', () => {
    this.SUBRULE(this.primary);
    this.MANY(() => this.SUBRULE(this.postfixOp));
  });

  public postfixOp = this.RULE('postfixOp', () => {
    this.OR([
      alt(() => {
        this.CONSUME(T.LBracket);
        this.SUBRULE(this.expression);
        this.CONSUME(T.RBracket);
      }),
      alt(() => {
        this.CONSUME(T.Dot);
        this.SUBRULE(this.fieldName);
      }),
    ]);
  });

  public primary = this.RULE('primary', () => {
    this.OR({
      IGNORE_AMBIGUITIES: true,
      DEF: [
        alt(() => this.CONSUME(T.NumberLit)),
        alt(() => this.CONSUME(T.StringLit)),
        alt(() => this.CONSUME(T.True)),
        alt(() => this.CONSUME(T.False)),
        alt(() => this.CONSUME(T.Null)),
        alt(() => this.CONSUME(T.Param)),
        gatedAlt(() => isWord(this.LA(1), ...TYPED_LITERAL_WORDS) && this.LA(2).tokenType === T.StringLit, () => this.SUBRULE(this.typedLiteral)),
        gatedAlt(() => this.intervalAhead(), () => this.SUBRULE(this.interval)),
        alt(() => this.SUBRULE(this.caseExpr)),
        alt(() => this.SUBRULE(this.castExpr)),
        alt(() => this.SUBRULE(this.extractExpr)),
        alt(() => this.SUBRULE(this.existsExpr)),
        alt(() => this.SUBRULE(this.arrayExpr)),
        alt(() => this.SUBRULE(this.arrayLiteral)),
        alt(() => this.SUBRULE(this.structExpr)),
        alt(() => this.SUBRULE(this.parenBody)),
        alt(() => this.SUBRULE(this.keywordCall)),
        alt(() => this.SUBRULE(this.pathOrCall)),
      ],
    });
  });

  public typedLiteral = this.RULE('typedLiteral', () => {
    this.CONSUME(T.Identifier, { LABEL: 'typeWord' });
    this.CONSUME(T.StringLit);
  });

  /** `INTERVAL <unary> <unit>` (INTERVAL is a soft word so `interval` can still name a column). */
  public interval = this.RULE('interval', () => {
    this.CONSUME(T.Identifier, { LABEL: 'intervalWord' });
    this.SUBRULE(this.unary, { LABEL: 'value' });
    this.CONSUME2(T.Identifier, { LABEL: 'unit' });
  });

  public caseExpr = this.RULE('caseExpr', () => {
    this.CONSUME(T.Case);
    this.OPTION(() => this.SUBRULE(this.expression, { LABEL: 'operand' }));
    this.AT_LEAST_ONE(() => {
      this.CONSUME(T.When);
      this.SUBRULE2(this.expression, { LABEL: 'when' });
      this.CONSUME(T.Then);
      this.SUBRULE3(this.expression, { LABEL: 'then' });
    });
    this.OPTION2(() => {
      this.CONSUME(T.Else);
      this.SUBRULE4(this.expression, { LABEL: 'else' });
    });
    this.CONSUME(T.End);
  });

  public castExpr = this.RULE('castExpr', () => {
    this.OR([alt(() => this.CONSUME(T.Cast)), alt(() => this.CONSUME(T.SafeCast))]);
    this.CONSUME(T.LParen);
    this.SUBRULE(this.expression);
    this.CONSUME(T.As);
    this.SUBRULE(this.typeName);
    this.CONSUME(T.RParen);
  });

  /** INT64, STRING(10), ARRAY<STRING>, STRUCT<a INT64, b ARRAY<STRING>>. */
  public typeName = this.RULE('typeName', () => {
    this.OR([
      alt(() => this.CONSUME(T.Identifier, { LABEL: 'typeWord' })),
      alt(() => this.CONSUME(T.ArrayKw, { LABEL: 'typeWord' })),
      alt(() => this.CONSUME(T.Struct, { LABEL: 'typeWord' })),
    ]);
    this.OPTION(() => {
      this.CONSUME(T.Less);
      this.AT_LEAST_ONE_SEP(sep(T.Comma, () => this.SUBRULE(this.typeParam)));
      this.CONSUME(T.Greater);
    });
    this.OPTION2(() => {
      this.CONSUME(T.LParen);
      this.AT_LEAST_ONE_SEP2(sep(T.Comma, () => this.CONSUME(T.NumberLit, { LABEL: 'size' })));
      this.CONSUME(T.RParen);
    });
  });

  /** A type inside `<...>`, optionally preceded by a STRUCT field name. */
  public typeParam = this.RULE('typeParam', () => {
    this.OPTION(gated(() => {
      const t = this.LA(2).tokenType;
      return this.LA(1).tokenType === T.Identifier && (t === T.Identifier || t === T.ArrayKw || t === T.Struct);
    }, () => this.CONSUME(T.Identifier, { LABEL: 'field' })));
    this.SUBRULE(this.typeName);
  });

  /** EXTRACT(part FROM expr); part may be WEEK(MONDAY). */
  public extractExpr = this.RULE('extractExpr', () => {
    this.CONSUME(T.Extract);
    this.CONSUME(T.LParen);
    this.CONSUME(T.Identifier, { LABEL: 'part' });
    this.OPTION(() => {
      this.CONSUME2(T.LParen);
      this.CONSUME2(T.Identifier, { LABEL: 'partArg' });
      this.CONSUME2(T.RParen);
    });
    this.CONSUME(T.From);
    this.SUBRULE(this.expression);
    this.CONSUME(T.RParen);
  });

  public existsExpr = this.RULE('existsExpr', () => {
    this.CONSUME(T.Exists);
    this.CONSUME(T.LParen);
    this.SUBRULE(this.query);
    this.CONSUME(T.RParen);
  });

  /** `ARRAY(query)`, `ARRAY<T>[...]`, `ARRAY[...]` */
  public arrayExpr = this.RULE('arrayExpr', () => {
    this.CONSUME(T.ArrayKw);
    this.OR([
      alt(() => {
        this.CONSUME(T.LParen);
        this.SUBRULE(this.query);
        this.CONSUME(T.RParen);
      }),
      alt(() => {
        this.OPTION(() => {
          this.CONSUME(T.Less);
          this.SUBRULE(this.typeName);
          this.CONSUME(T.Greater);
        });
        this.SUBRULE(this.arrayLiteral);
      }),
    ]);
  });

  public arrayLiteral = this.RULE('arrayLiteral', () => {
    this.CONSUME(T.LBracket);
    this.MANY_SEP(sep(T.Comma, () => this.SUBRULE(this.expression)));
    this.CONSUME(T.RBracket);
  });

  public structExpr = this.RULE('structExpr', () => {
    this.CONSUME(T.Struct);
    this.CONSUME(T.LParen);
    this.MANY_SEP(sep(T.Comma, () => this.SUBRULE(this.structField)));
    this.CONSUME(T.RParen);
  });

  public structField = this.RULE('structField', () => {
    this.SUBRULE(this.expression);
    this.OPTION(() => {
      this.CONSUME(T.As);
      this.SUBRULE(this.name);
    });
  });

  /** LEFT(s, n) and RIGHT(s, n): string functions spelled like reserved words. */
  public keywordCall = this.RULE('keywordCall', () => {
    this.OR([
      alt(() => this.CONSUME(T.Left, { LABEL: 'fn' })),
      alt(() => this.CONSUME(T.Right, { LABEL: 'fn' })),
    ]);
    this.SUBRULE(this.callArgs);
  });

  /** A (dotted) name, a call `name(args)` or `SAFE.name(args)`. */
  public pathOrCall = this.RULE('pathOrCall', () => {
    this.SUBRULE(this.path);
    this.OPTION(() => this.SUBRULE(this.callArgs));
  });

  /** `(*)`, `()`, `([DISTINCT] a, b [IGNORE|RESPECT NULLS] [ORDER BY ...] [LIMIT n])` */
  public callArgs = this.RULE('callArgs', () => {
    this.CONSUME(T.LParen);
    this.OPTION(() =>
      this.OR([
        alt(() => this.CONSUME(T.Star)),
        alt(() => {
          this.OPTION2(() => this.CONSUME(T.Distinct));
          this.AT_LEAST_ONE_SEP(sep(T.Comma, () => this.SUBRULE(this.expression, { LABEL: 'arg' })));
          this.OPTION3(gated(() => isWord(this.LA(1), 'IGNORE', 'RESPECT'), () => {
            this.CONSUME(T.Identifier, { LABEL: 'nullsMode' });
            this.CONSUME(T.Nulls);
          }));
          this.OPTION4(() => this.SUBRULE(this.orderBy));
          this.OPTION5(() => {
            this.CONSUME(T.Limit);
            this.SUBRULE2(this.expression, { LABEL: 'limit' });
          });
        }),
      ]),
    );
    this.CONSUME(T.RParen);
  });
}

/** The one parser instance, reused. */
export const sqlParser = new SqlParser();
