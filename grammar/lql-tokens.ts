// Tokens and the multi-mode lexer of the LQL subset (SPEC §5). Mode `term` reads term starts; an
// operator pushes `value`, `f:`/`s:` push `name`, `c:` pushes `chart`; whitespace pops back.

import { Lexer, createToken } from './chevrotain-runtime.ts';
import type { TokenType } from 'chevrotain';

const IDENT_PATH = /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/;

// ─── term mode ──────────────────────────────────────────────────────────────────────────────
export const TermSpace = createToken({ name: 'TermSpace', pattern: /\s+/, group: Lexer.SKIPPED });
/** `-` directly before a term (no space between) negates it. */
export const Minus = createToken({ name: 'Minus', pattern: /-(?=\S)/, start_chars_hint: ['-'], label: "'-'" });
export const RegexQuoted = createToken({ name: 'RegexQuoted', pattern: /~"(?:[^"\\]|\\[^])*"/, label: '~"regex"' });
/** `~pattern`; a second `~` right after the first (`~~p`) is a doubled operator, not a pattern. */
export const RegexBare = createToken({ name: 'RegexBare', pattern: /~(?:[^\s"~\\]|\\\S?)(?:[^\s"\\]|\\\S?)*/, label: '~regex' });
export const Quoted = createToken({ name: 'Quoted', pattern: /"(?:[^"\\]|\\[^])*"/, label: '"quoted string"' });
/** `f:`/`from:`, `s:`/`select:`, `c:`/`chart:` (the reference's short and long keywords). */
export const SourceKey = createToken({ name: 'SourceKey', pattern: /(?:from|f):/, start_chars_hint: ['f'], push_mode: 'name', label: "'f:'" });
export const SelectKey = createToken({ name: 'SelectKey', pattern: /(?:select|s):/, start_chars_hint: ['s'], push_mode: 'name', label: "'s:'" });
export const ChartKey = createToken({ name: 'ChartKey', pattern: /(?:chart|c):/, start_chars_hint: ['c'], push_mode: 'chart', label: "'c:'" });
/** `t` or `timestamp` right before an operator. */
export const TimeKey = createToken({ name: 'TimeKey', pattern: /(?:timestamp|t)(?=:)/, start_chars_hint: ['t'], label: "'t'" });
/** A dotted field path right before an operator: `m.request.path`, `status`. */
export const FieldKey = createToken({
  name: 'FieldKey',
  pattern: new RegExp(`${IDENT_PATH.source}(?=:)`),
  start_chars_hint: [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_'],
  label: 'field path',
});

export const Operator = createToken({ name: 'Operator', pattern: Lexer.NA });
export const Comparison = createToken({ name: 'Comparison', pattern: Lexer.NA, categories: [Operator], label: "':>', ':>=', ':<', ':<='" });
const op = (name: string, pattern: RegExp, label: string, cats: TokenType[]): TokenType =>
  createToken({ name, pattern, push_mode: 'value', categories: cats, label });
export const OpGte = op('OpGte', /:>=/, "':>='", [Comparison]);
export const OpLte = op('OpLte', /:<=/, "':<='", [Comparison]);
export const OpGt = op('OpGt', /:>/, "':>'", [Comparison]);
export const OpLt = op('OpLt', /:</, "':<'", [Comparison]);
export const OpRegex = op('OpRegex', /:~/, "':~'", [Operator]);
/** `:@>~` and `:@>`: the array field holds an element matching the regex / equal to the value. */
export const OpListRegex = op('OpListRegex', /:@>~/, "':@>~'", [Operator]);
export const OpList = op('OpList', /:@>/, "':@>'", [Operator]);
export const OpEq = op('OpEq', /:/, "':'", [Operator]);
/**
 * Free text: anything up to whitespace or a quote, not starting with `"`, `~`, `:` or `-`; as in the
 * reference, a backslash takes the next character with it (`er\"ror` is one word).
 */
export const Word = createToken({ name: 'Word', pattern: /(?:[^\s"~:\\-]|\\\S?)(?:[^\s"\\]|\\\S?)*/, label: 'word' });

// ─── value mode (after an operator) ─────────────────────────────────────────────────────────
export const ValueSpace = createToken({ name: 'ValueSpace', pattern: /\s+/, group: Lexer.SKIPPED, pop_mode: true });
export const DotDot = createToken({ name: 'DotDot', pattern: /\.\./, label: "'..'" });
/**
 * Bare value: no whitespace, no quote, no `..`; may hold `/`, `-`, `_`, `.`, `:`, digits. It may not
 * start with an operator character (`:`, `<`, `>`, `=`, `~`): `m.f:>>1`, `m.f::v` are doubled operators.
 */
export const Value = createToken({ name: 'Value', pattern: /(?:[^\s".:<>=~]|\.(?!\.))(?:[^\s".]|\.(?!\.))*/, label: 'value' });
export const IsoTimestamp = createToken({
  name: 'IsoTimestamp',
  pattern: /\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(?:Z|[+-]\d{2}:?\d{2})?/,
  longer_alt: Value,
  label: 'ISO timestamp',
});
const PERIOD = '(?:weeks?|months?|days?|years?|hours?|minutes?|seconds?|mm|s|m|h|d|w|y)';
/** Time shorthands: `now`, `today`, `yesterday`, `this@week`, `last@15minutes`, `last@5m`, `last@hour`. */
export const Relative = createToken({
  name: 'Relative',
  pattern: new RegExp(`(?:now|today|yesterday|this@${PERIOD}|last@\\d{0,4}${PERIOD})`),
  longer_alt: Value,
  label: 'time shorthand (now, today, yesterday, this@week, last@5m)',
});
const D2 = '(?:\\d{2}|\\{\\d{2}\\.\\.\\d{2}\\})';
/** A date or datetime with `{a..b}` ranges in some parts: `2020-{05..07}-01`, `2020-01-01T{01..03}:00:00`. */
export const BraceTimestamp = createToken({
  name: 'BraceTimestamp',
  start_chars_hint: [...'0123456789{'],
  pattern: new RegExp(`(?=[^\\s]*\\{)(?:\\d{4}|\\{\\d{4}\\.\\.\\d{4}\\})-${D2}-${D2}(?:T${D2}:${D2}:${D2}(?:\\.(?:\\d{1,6}|\\{\\d{1,6}\\.\\.\\d{1,6}\\}))?)?(?:Z|[+-]\\d{2}:\\d{2})?`),
  label: 'date with {a..b} ranges',
});
export const NumberLit = createToken({ name: 'NumberLit', pattern: /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/, longer_alt: Value, label: 'number' });
export const NullLit = createToken({ name: 'NullLit', pattern: /null/i, longer_alt: Value, label: 'NULL' });
export const TrueLit = createToken({ name: 'TrueLit', pattern: /true/i, longer_alt: Value, label: 'true' });
export const FalseLit = createToken({ name: 'FalseLit', pattern: /false/i, longer_alt: Value, label: 'false' });

// ─── name mode (after f: and s:) ────────────────────────────────────────────────────────────
export const NameSpace = createToken({ name: 'NameSpace', pattern: /\s+/, group: Lexer.SKIPPED, pop_mode: true });
export const Name = createToken({ name: 'Name', pattern: IDENT_PATH, label: 'name' });
/** `s:path@alias`; a bare `@` is the reference's "blank select alias" error. */
export const SelectAlias = createToken({ name: 'SelectAlias', pattern: /@[A-Za-z0-9_]*/, label: '@alias' });

// ─── chart mode (after c:) ──────────────────────────────────────────────────────────────────
export const ChartSpace = createToken({ name: 'ChartSpace', pattern: /\s+/, group: Lexer.SKIPPED, pop_mode: true });
export const ChartIdent = createToken({ name: 'ChartIdent', pattern: IDENT_PATH, label: 'field path' });
const kw = (name: string, pattern: RegExp, label: string): TokenType => createToken({ name, pattern, longer_alt: ChartIdent, label });
export const Count = kw('Count', /count/i, "'count'");
/** The reference's chart aggregates over a field (`count` is its own token: `count(*)`). */
export const Aggregate = kw('Aggregate', /avg|countd|sum|max|min|p50|p95|p99/i, "'avg', 'countd', 'sum', 'max', 'min', 'p50', 'p95' or 'p99'");
export const GroupBy = kw('GroupBy', /group_by/i, "'group_by'");
export const TimeRef = kw('TimeRef', /timestamp|t/, "'t'");
/** `group_by(t::<period>)`: second|s, minute|m, hour|h, day|d. */
export const Period = createToken({ name: 'Period', pattern: /(?:second|minute|hour|day|s|m|h|d)(?=\))/i, label: "'second', 'minute', 'hour' or 'day'" });
export const LParen = createToken({ name: 'LParen', pattern: /\(/, label: "'('" });
export const RParen = createToken({ name: 'RParen', pattern: /\)/, label: "')'" });
export const Star = createToken({ name: 'Star', pattern: /\*/, label: "'*'" });
export const DoubleColon = createToken({ name: 'DoubleColon', pattern: /::/, label: "'::'" });

const termMode = [TermSpace, Minus, RegexQuoted, RegexBare, Quoted, SourceKey, SelectKey, ChartKey, TimeKey, FieldKey,
  OpGte, OpLte, OpGt, OpLt, OpRegex, OpListRegex, OpList, OpEq, Word];
const valueMode = [ValueSpace, Quoted, DotDot, BraceTimestamp, IsoTimestamp, Relative, NumberLit, NullLit, TrueLit, FalseLit, Value];
const nameMode = [NameSpace, Star, Name, SelectAlias];
const chartMode = [ChartSpace, LParen, RParen, Star, DoubleColon, Period, Aggregate, Count, GroupBy, TimeRef, ChartIdent];

export const lqlLexerDefinition = {
  modes: { term: termMode, value: valueMode, name: nameMode, chart: chartMode },
  defaultMode: 'term',
};

/** Every token type, for the parser (abstract categories included). */
export const lqlTokens: TokenType[] = [Operator, Comparison, ...new Set([...termMode, ...valueMode, ...nameMode, ...chartMode])];

/** A lexer of the LQL modes; `validate`: run Chevrotain's lexer checks (the one instance skips them, as newSqlLexer's does). */
export function newLqlLexer(validate = false): Lexer {
  return new Lexer(lqlLexerDefinition, { positionTracking: 'full', ensureOptimizations: false, skipValidations: !validate });
}

let lexer: Lexer | null = null;

/** One lexer instance, reused; made at first use (~40 ms of CPU a query without LQL need not spend). */
export function lqlLexer(): Lexer {
  return (lexer ??= newLqlLexer());
}
