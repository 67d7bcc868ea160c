// Chevrotain CstParser of the LQL subset (SPEC §5): a pure grammar, no embedded actions.
// Terms follow each other (implicit AND); src/lql/read-terms.ts turns the CST into typed terms.

import { CstParser } from './chevrotain-runtime.ts';
import { lazyLookahead } from './lazy-lookahead.ts';
import type { CstNode } from 'chevrotain';
import {
  Aggregate, BraceTimestamp, ChartIdent, ChartKey, Comparison, Count, DotDot, DoubleColon, FalseLit, FieldKey, GroupBy, IsoTimestamp, LParen, Minus,
  Name, NullLit, NumberLit, OpEq, OpList, OpListRegex, OpRegex, Period, Quoted, RParen, RegexBare, RegexQuoted, Relative, SelectAlias, SelectKey,
  SourceKey, Star, TimeKey, TimeRef, TrueLit, Value, Word, lqlTokens,
} from './lql-tokens.ts';

export class LqlParser extends CstParser {
  /** `validate`: run Chevrotain's grammar checks; the one instance skips them (test/sql/grammar-validations.test.ts runs them). */
  constructor(validate = false) {
    super(lqlTokens, { maxLookahead: 2, lookaheadStrategy: lazyLookahead(2), skipValidations: !validate });
    this.performSelfAnalysis();
  }

  /** query := term* */
  public query = this.RULE('query', () => {
    this.MANY(() => this.SUBRULE(this.term));
  });

  /** term := '-'? (text | regex | field | time | source | select | chart) */
  public term = this.RULE('term', () => {
    this.OPTION(() => this.CONSUME(Minus));
    this.OR([
      { ALT: () => this.SUBRULE(this.textTerm) },
      { ALT: () => this.SUBRULE(this.regexTerm) },
      { ALT: () => this.SUBRULE(this.fieldTerm) },
      { ALT: () => this.SUBRULE(this.timeTerm) },
      { ALT: () => this.SUBRULE(this.sourceTerm) },
      { ALT: () => this.SUBRULE(this.selectTerm) },
      { ALT: () => this.SUBRULE(this.chartTerm) },
    ]);
  });

  /** `error` or `"two words"` */
  public textTerm = this.RULE('textTerm', () => {
    this.OR([{ ALT: () => this.CONSUME(Word) }, { ALT: () => this.CONSUME(Quoted) }]);
  });

  /** `~"pattern"` or `~pattern` */
  public regexTerm = this.RULE('regexTerm', () => {
    this.OR([{ ALT: () => this.CONSUME(RegexQuoted) }, { ALT: () => this.CONSUME(RegexBare) }]);
  });

  /** path ':' value ('..' value)? | path (':>'|':>='|':<'|':<=') value | path (':~'|':@>'|':@>~') value */
  public fieldTerm = this.RULE('fieldTerm', () => {
    this.CONSUME(FieldKey);
    this.OR([
      {
        ALT: () => {
          this.CONSUME(OpEq);
          this.SUBRULE(this.value, { LABEL: 'low' });
          this.OPTION(() => {
            this.CONSUME(DotDot);
            this.SUBRULE2(this.value, { LABEL: 'high' });
          });
        },
      },
      { ALT: () => { this.CONSUME(Comparison); this.SUBRULE3(this.value, { LABEL: 'low' }); } },
      { ALT: () => { this.CONSUME(OpRegex); this.SUBRULE4(this.value, { LABEL: 'low' }); } },
      { ALT: () => { this.CONSUME(OpList); this.SUBRULE5(this.value, { LABEL: 'low' }); } },
      { ALT: () => { this.CONSUME(OpListRegex); this.SUBRULE6(this.value, { LABEL: 'low' }); } },
    ]);
  });

  public value = this.RULE('value', () => {
    this.OR([
      { ALT: () => this.CONSUME(Quoted) },
      { ALT: () => this.CONSUME(NumberLit) },
      { ALT: () => this.CONSUME(NullLit) },
      { ALT: () => this.CONSUME(TrueLit) },
      { ALT: () => this.CONSUME(FalseLit) },
      { ALT: () => this.CONSUME(IsoTimestamp) },
      { ALT: () => this.CONSUME(Relative) },
      { ALT: () => this.CONSUME(Value) },
    ]);
  });

  /** t ':' tv ('..' tv)? | t (':>'|':>='|':<'|':<=') tv */
  public timeTerm = this.RULE('timeTerm', () => {
    this.CONSUME(TimeKey);
    this.OR([
      {
        ALT: () => {
          this.CONSUME(OpEq);
          this.SUBRULE(this.timeValue, { LABEL: 'low' });
          this.OPTION(() => {
            this.CONSUME(DotDot);
            this.SUBRULE2(this.timeValue, { LABEL: 'high' });
          });
        },
      },
      { ALT: () => { this.CONSUME(Comparison); this.SUBRULE3(this.timeValue, { LABEL: 'low' }); } },
    ]);
  });

  /**
   * An ISO 8601 timestamp (bare or quoted: a quoted one is checked by the compiler), one with `{a..b}`
   * parts, a Unix timestamp (10, 13 or 16 digits), or a shorthand (`today`, `last@5m`).
   */
  public timeValue = this.RULE('timeValue', () => {
    this.OR([
      { ALT: () => this.CONSUME(IsoTimestamp) },
      { ALT: () => this.CONSUME(Quoted) },
      { ALT: () => this.CONSUME(BraceTimestamp) },
      { ALT: () => this.CONSUME(NumberLit) },
      { ALT: () => this.CONSUME(Relative) },
    ]);
  });

  /** `f:<cte>` */
  public sourceTerm = this.RULE('sourceTerm', () => {
    this.CONSUME(SourceKey);
    this.CONSUME(Name);
  });

  /** `s:<dotted.path>[@alias]` | `s:*` */
  public selectTerm = this.RULE('selectTerm', () => {
    this.CONSUME(SelectKey);
    this.OR([
      { ALT: () => this.CONSUME(Star) },
      {
        ALT: () => {
          this.CONSUME(Name);
          this.OPTION(() => this.CONSUME(SelectAlias));
        },
      },
    ]);
  });

  /** `c:count(*)` | `c:<agg>(<path>)` | `c:group_by(t::second|minute|hour|day)` */
  public chartTerm = this.RULE('chartTerm', () => {
    this.CONSUME(ChartKey);
    this.OR([
      {
        ALT: () => {
          this.OR3([{ ALT: () => this.CONSUME(Count) }, { ALT: () => this.CONSUME(Aggregate) }]);
          this.CONSUME(LParen);
          this.OR4([
            { ALT: () => this.CONSUME(Star) },
            { ALT: () => this.CONSUME(ChartIdent) },
            { ALT: () => this.CONSUME2(TimeRef) },
          ]);
          this.CONSUME(RParen);
        },
      },
      {
        ALT: () => {
          this.CONSUME(GroupBy);
          this.CONSUME2(LParen);
          this.CONSUME(TimeRef);
          this.CONSUME(DoubleColon);
          this.CONSUME(Period);
          this.CONSUME2(RParen);
        },
      },
    ]);
  });
}

let parser: LqlParser | null = null;

/** One parser instance, reused (set `input`, call `query()`, read `errors`); made at first use. */
export function lqlParser(): LqlParser {
  return (parser ??= new LqlParser());
}

export type { CstNode };
