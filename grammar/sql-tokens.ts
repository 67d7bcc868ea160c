// Tokens and the one reused Lexer of the BigQuery SQL subset (SPEC §7). Only reserved words are
// keyword tokens; soft words (TIMESTAMP, INTERVAL, OFFSET, HOUR, START...) stay Identifiers.

import { Lexer, createToken } from './chevrotain-runtime.ts';
import type { TokenType } from 'chevrotain';

export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /\s+/, group: Lexer.SKIPPED });
export const LineComment = createToken({ name: 'LineComment', pattern: /(?:--|#)[^\n\r]*/, group: Lexer.SKIPPED });
export const BlockComment = createToken({ name: 'BlockComment', pattern: /\/\*[\s\S]*?\*\//, group: Lexer.SKIPPED });

/** '...', "...", '''...''', """...""" with an optional r/b/rb prefix (raw, bytes). */
export const StringLit = createToken({
  name: 'StringLit',
  pattern:
    /(?:[rR][bB]?|[bB][rR]?)?(?:'''(?:[^'\\]|\\[\s\S]|'(?!''))*'''|"""(?:[^"\\]|\\[\s\S]|"(?!""))*"""|(?!''')'(?:[^'\\\n\r]|\\[\s\S])*'|(?!""")"(?:[^"\\\n\r]|\\[\s\S])*")/,
  start_chars_hint: ["'", '"', 'r', 'R', 'b', 'B'],
  label: 'string',
});
export const BacktickIdent = createToken({ name: 'BacktickIdent', pattern: /`(?:[^`\\\n\r]|\\[\s\S])*`/, label: 'quoted name' });

// Error tokens: matched only when the complete forms above failed, so the parser can say
// "unterminated string" at the opening quote instead of "unexpected character".
export const UnterminatedString = createToken({
  name: 'UnterminatedString',
  pattern: /(?:[rR][bB]?|[bB][rR]?)?(?:'''|"""|'|")/,
  start_chars_hint: ["'", '"', 'r', 'R', 'b', 'B'],
  label: 'unterminated string',
});
export const UnterminatedBacktick = createToken({ name: 'UnterminatedBacktick', pattern: /`/, label: 'unterminated quoted name' });
export const UnterminatedComment = createToken({ name: 'UnterminatedComment', pattern: /\/\*/, label: 'unterminated comment' });

export const Param = createToken({ name: 'Param', pattern: /@[A-Za-z_][A-Za-z0-9_]*/, label: '@parameter' });
export const NumberLit = createToken({
  name: 'NumberLit',
  pattern: /0[xX][0-9a-fA-F]+|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?/,
  label: 'number',
});
export const Identifier = createToken({ name: 'Identifier', pattern: /[A-Za-z_][A-Za-z0-9_]*/, label: 'name' });

/** Every reserved word is also a Keyword, so a path may continue with one after a dot (`t.end`). */
export const Keyword = createToken({ name: 'Keyword', pattern: Lexer.NA, label: 'keyword' });

const keywordTokens: TokenType[] = [];
function kw(word: string, label = word): TokenType {
  const name = word.split('_').map((w) => w[0] + w.slice(1).toLowerCase()).join('');
  const t = createToken({ name, pattern: new RegExp(word, 'i'), longer_alt: Identifier, categories: [Keyword], label });
  keywordTokens.push(t);
  return t;
}

export const Select = kw('SELECT');
export const From = kw('FROM');
export const Where = kw('WHERE');
export const Group = kw('GROUP', 'GROUP BY');
export const By = kw('BY');
export const Having = kw('HAVING');
export const Qualify = kw('QUALIFY');
export const Order = kw('ORDER', 'ORDER BY');
export const Limit = kw('LIMIT');
export const With = kw('WITH');
export const As = kw('AS');
export const Distinct = kw('DISTINCT');
export const All = kw('ALL');
export const Union = kw('UNION');
export const Intersect = kw('INTERSECT');
export const Except = kw('EXCEPT');
export const Join = kw('JOIN');
export const Inner = kw('INNER');
export const Left = kw('LEFT');
export const Right = kw('RIGHT');
export const Full = kw('FULL');
export const Outer = kw('OUTER');
export const Cross = kw('CROSS');
export const On = kw('ON');
export const Using = kw('USING');
export const Unnest = kw('UNNEST');
export const And = kw('AND');
export const Or = kw('OR');
export const Not = kw('NOT');
export const In = kw('IN');
export const Is = kw('IS');
export const Null = kw('NULL');
export const True = kw('TRUE');
export const False = kw('FALSE');
export const Between = kw('BETWEEN');
export const Like = kw('LIKE');
export const Case = kw('CASE');
export const When = kw('WHEN');
export const Then = kw('THEN');
export const Else = kw('ELSE');
export const End = kw('END');
export const Cast = kw('CAST');
export const SafeCast = kw('SAFE_CAST');
export const Extract = kw('EXTRACT');
export const Exists = kw('EXISTS');
export const ArrayKw = kw('ARRAY');
export const Struct = kw('STRUCT');
export const Asc = kw('ASC');
export const Desc = kw('DESC');
export const Nulls = kw('NULLS');
export const Over = kw('OVER');

export const LParen = createToken({ name: 'LParen', pattern: /\(/, label: "'('" });
export const RParen = createToken({ name: 'RParen', pattern: /\)/, label: "')'" });
export const LBracket = createToken({ name: 'LBracket', pattern: /\[/, label: "'['" });
export const RBracket = createToken({ name: 'RBracket', pattern: /\]/, label: "']'" });
export const Comma = createToken({ name: 'Comma', pattern: /,/, label: "','" });
export const Dot = createToken({ name: 'Dot', pattern: /\./, label: "'.'" });
export const Semicolon = createToken({ name: 'Semicolon', pattern: /;/, label: "';'" });
export const Star = createToken({ name: 'Star', pattern: /\*/, label: "'*'" });
export const Plus = createToken({ name: 'Plus', pattern: /\+/, label: "'+'" });
export const Minus = createToken({ name: 'Minus', pattern: /-/, label: "'-'" });
export const Slash = createToken({ name: 'Slash', pattern: /\//, label: "'/'" });
export const Concat = createToken({ name: 'Concat', pattern: /\|\|/, label: "'||'" });
export const Pipe = createToken({ name: 'Pipe', pattern: /\|/, label: "'|'" });
export const Amp = createToken({ name: 'Amp', pattern: /&/, label: "'&'" });
export const Caret = createToken({ name: 'Caret', pattern: /\^/, label: "'^'" });
export const Tilde = createToken({ name: 'Tilde', pattern: /~/, label: "'~'" });
export const ShiftLeft = createToken({ name: 'ShiftLeft', pattern: /<</, label: "'<<'" });
/** `!=` and `<>`. (`>>` is lexed as two `>` so `ARRAY<ARRAY<INT64>>` closes; the parser rejoins them.) */
export const NotEq = createToken({ name: 'NotEq', pattern: /!=|<>/, label: "'!='" });
export const LessEq = createToken({ name: 'LessEq', pattern: /<=/, label: "'<='" });
export const GreaterEq = createToken({ name: 'GreaterEq', pattern: />=/, label: "'>='" });
export const Less = createToken({ name: 'Less', pattern: /</, label: "'<'" });
export const Greater = createToken({ name: 'Greater', pattern: />/, label: "'>'" });
export const Equals = createToken({ name: 'Equals', pattern: /=/, label: "'='" });

/** Longest keywords first so `INNER` is not read as `IN` + `NER` (longer_alt then keeps `INNERX` a name). */
const keywordsByLength = [...keywordTokens].sort((a, b) => String(b.PATTERN).length - String(a.PATTERN).length);

export const sqlTokens: TokenType[] = [
  WhiteSpace, LineComment, BlockComment, UnterminatedComment,
  StringLit, UnterminatedString, BacktickIdent, UnterminatedBacktick,
  Param, NumberLit,
  Keyword, ...keywordsByLength, Identifier,
  LParen, RParen, LBracket, RBracket, Comma, Dot, Semicolon, Star, Plus, Minus, Slash,
  Concat, Pipe, Amp, Caret, Tilde, ShiftLeft, NotEq, LessEq, GreaterEq, Less, Greater, Equals,
];

/** Reserved words (upper case): a name spelled like one must be quoted with backticks. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set(keywordTokens.map((t) => new RegExp(t.PATTERN as RegExp).source));

/**
 * A lexer of the SQL tokens. `validate`: run Chevrotain's lexer checks (unreachable or empty patterns,
 * ...): ~25-90 ms of CPU at each start, so the one instance skips them and
 * test/sql/grammar-validations.test.ts runs them. Tokens are the same either way.
 */
export function newSqlLexer(validate = false): Lexer {
  return new Lexer(sqlTokens, { positionTracking: 'full', ensureOptimizations: false, skipValidations: !validate });
}

/** The one lexer instance, reused. */
export const sqlLexer = newSqlLexer();
