// Reads LQL text into typed terms: lexes and parses with grammar/lql-*, turns the first lexer or
// parser error into a RingqlError('syntax_error', {line: 1, column}), and walks the CST.

import type { CstElement, CstNode, IToken } from 'chevrotain';
import { lqlLexer } from '../../grammar/lql-tokens.ts';
import { lqlParser } from '../../grammar/lql-parser.ts';
import type { ChartAggregate, CompareOp, FieldOp, FilterTerm, LqlValue, Term, TimeUnit } from './terms.ts';
import { syntaxError } from './syntax-error.ts';
import { readTimeTerm } from './time-values.ts';

export { syntaxError };

/** C0 control characters other than the whitespace \t \n \v \f \r, and DEL: never part of LQL. */
const CONTROL = /[\x00-\x08\x0e-\x1f\x7f]/;

export function readTerms(text: string): Term[] {
  rejectControl(text);
  const lexed = lqlLexer().tokenize(text);
  const lexErr = lexed.errors[0];
  if (lexErr) {
    const ch = text.charAt(lexErr.offset);
    const closed = /^"(?:[^"\\]|\\[^])*"/.test(text.slice(lexErr.offset));
    const doubled = /[:<>=~]/.test(ch) && /[:<>=~@]$/.test(text.slice(0, lexErr.offset));
    const hint = doubled ? `doubled operator: '${ch}' cannot follow an operator (quote a value that starts with it)`
      : ch === '"' ? (closed ? `unexpected '"': a quoted string is not allowed here` : 'unterminated quoted string (close it with ")')
        : ch === '-' ? "'-' must be written directly before the term it negates"
          : ch === '~' ? "'~' must be followed by a pattern: ~\"regex\" or ~regex"
            : `unexpected character '${ch}'`;
    throw syntaxError(lexErr.column ?? lexErr.offset + 1, hint, lexErr.line ?? 1);
  }
  const parser = lqlParser();
  parser.input = lexed.tokens;
  const cst = parser.query();
  const parseErr = parser.errors[0];
  if (parseErr) {
    const t = parseErr.token;
    const eof = t.tokenType.name === 'EOF' || t.startColumn === undefined || !Number.isFinite(t.startColumn);
    const [line, column] = eof ? endPosition(text) : [t.startLine ?? 1, t.startColumn!];
    const found = eof ? 'end of input' : `'${t.image}'`;
    throw syntaxError(column, `unexpected ${found}${expectedOf(parseErr.message)}`, line);
  }
  return children(cst, 'term').map((n) => readTerm(n as CstNode));
}

/** A control character anywhere (quoted text included) is a syntax error at its position. */
function rejectControl(text: string): void {
  const m = CONTROL.exec(text);
  if (!m) return;
  const before = text.slice(0, m.index).split(/\r\n|\r|\n/);
  const code = m[0].charCodeAt(0).toString(16).padStart(2, '0');
  throw syntaxError(before[before.length - 1]!.length + 1, `control character U+00${code.toUpperCase()} is not allowed in LQL`, before.length);
}

/** [line, column] just past the last character. */
function endPosition(text: string): [number, number] {
  const lines = text.split(/\r\n|\r|\n/);
  return [lines.length, lines[lines.length - 1]!.length + 1];
}

/** Chevrotain's multi-line "Expecting ..." message → `; expected a, b or c` (empty if unknown). */
function expectedOf(message: string): string {
  const single = /^Expecting (?:token of type )?--> (.*?) <--/.exec(message);
  if (single) return `; expected ${single[1]}`;
  const options = [...message.matchAll(/^\s*\d+\. \[(.*)\]\s*$/gm)].map((m) => m[1]!);
  if (options.length === 0) return '';
  const last = options.pop()!;
  return `; expected ${options.length ? `${options.join(', ')} or ${last}` : last}`;
}

function children(node: CstNode, name: string): CstElement[] {
  return node.children[name] ?? [];
}
function token(node: CstNode, name: string): IToken | undefined {
  return children(node, name)[0] as IToken | undefined;
}
function sub(node: CstNode, name: string): CstNode | undefined {
  return children(node, name)[0] as CstNode | undefined;
}
function only(node: CstNode): CstNode {
  // A term node has at most a Minus token and exactly one sub-rule node.
  for (const [k, v] of Object.entries(node.children)) if (k !== 'Minus') return v[0] as CstNode;
  throw new Error('LQL term without content');
}
function firstToken(node: CstNode): IToken {
  let first: IToken | undefined;
  for (const list of Object.values(node.children)) {
    for (const el of list) {
      const t = 'image' in el ? el : firstToken(el);
      if (!first || t.startOffset < first.startOffset) first = t;
    }
  }
  if (!first) throw new Error('empty CST node');
  return first;
}

function readTerm(node: CstNode): Term {
  const minus = token(node, 'Minus');
  const negated = minus !== undefined;
  const body = only(node);
  const column = minus?.startColumn ?? firstToken(body).startColumn ?? 1;
  const filter = (t: FilterTerm): FilterTerm => t;
  const notNegated = (what: string): void => {
    if (minus) throw syntaxError(minus.startColumn ?? 1, `${what} cannot be negated`);
  };
  switch (body.name) {
    case 'textTerm': {
      const w = token(body, 'Word');
      return filter({ kind: 'text', text: w ? w.image : unquote(token(body, 'Quoted')!.image), negated, column });
    }
    case 'regexTerm': {
      const q = token(body, 'RegexQuoted');
      const pattern = q ? unquote(q.image.slice(1)) : token(body, 'RegexBare')!.image.slice(1);
      return filter({ kind: 'regex', pattern, negated, column });
    }
    case 'fieldTerm':
      return readField(body, negated, column);
    case 'timeTerm':
      return readTime(body, negated, column);
    case 'sourceTerm':
      notNegated('f:');
      return { kind: 'source', name: token(body, 'Name')!.image, column };
    case 'selectTerm':
      notNegated('s:');
      return readSelect(body, column);
    case 'chartTerm':
      notNegated('c:');
      return readChart(body, column);
    default:
      throw new Error(`unknown LQL rule ${body.name}`);
  }
}

function opOf(node: CstNode): FieldOp {
  if (token(node, 'OpEq')) return '=';
  if (token(node, 'OpRegex')) return '~';
  if (token(node, 'OpList')) return '@>';
  if (token(node, 'OpListRegex')) return '@>~';
  const ops: Record<string, CompareOp> = { OpGt: '>', OpGte: '>=', OpLt: '<', OpLte: '<=' };
  const t = token(node, 'Comparison')!;
  return ops[t.tokenType.name]!;
}

function readField(node: CstNode, negated: boolean, column: number): FilterTerm {
  const path = token(node, 'FieldKey')!.image.split('.');
  const op = opOf(node);
  const value = readValue(sub(node, 'low')!);
  const highNode = sub(node, 'high');
  if (!highNode) return { kind: 'field', path, op, value, negated, column };
  const high = readValue(highNode);
  for (const v of [value, high]) if (v.kind === 'null') throw syntaxError(v.column, 'NULL cannot bound a range');
  return { kind: 'field', path, op, value, high, negated, column };
}

function readValue(node: CstNode): LqlValue {
  const t = firstToken(node);
  const column = t.startColumn ?? 1;
  const raw = t.image;
  switch (t.tokenType.name) {
    case 'Quoted':
      // As the reference: \" and \\ are unescaped, a regex operand too (`~"\d"` and `~"\\d"` pass `\d`).
      return { kind: 'string', value: unquote(raw), raw: unquote(raw), column };
    case 'NumberLit': {
      const isInt = /^-?\d+$/.test(raw);
      return { kind: isInt ? 'int' : 'float', value: Number(raw), raw, column };
    }
    case 'NullLit':
      return { kind: 'null', raw, column };
    case 'TrueLit':
    case 'FalseLit':
      return { kind: 'bool', value: raw.toLowerCase() === 'true', raw, column };
    default:
      return { kind: 'string', value: raw, raw, column };
  }
}

function readTime(node: CstNode, negated: boolean, column: number): FilterTerm {
  const op = opOf(node) as CompareOp;
  const high = sub(node, 'high');
  return readTimeTerm(timeToken(sub(node, 'low')!), high && timeToken(high), op, negated, column);
}

/** A time value token, a quoted one unquoted. */
function timeToken(node: CstNode): { kind: string; text: string; column: number } {
  const t = firstToken(node);
  const kind = t.tokenType.name;
  return { kind, text: kind === 'Quoted' ? unquote(t.image) : t.image, column: t.startColumn ?? 1 };
}

/** `s:*`, `s:path`, `s:path@alias` (a blank `@` is an error, as in the reference). */
function readSelect(node: CstNode, column: number): Term {
  if (token(node, 'Star')) return { kind: 'select', path: [], column };
  const at = token(node, 'SelectAlias');
  if (at && at.image.length < 2) throw syntaxError(at.startColumn ?? column, 'a select alias needs a name after @ (s:path@alias)');
  const path = token(node, 'Name')!.image.split('.');
  return at ? { kind: 'select', path, alias: at.image.slice(1), column } : { kind: 'select', path, column };
}

/** `c:count(*)`, `c:<aggregate>(<path>)`, `c:group_by(t::<period>)`. */
function readChart(node: CstNode, column: number): Term {
  const period = token(node, 'Period');
  if (period) {
    const p = period.image.toLowerCase();
    const unit = ({ s: 'SECOND', m: 'MINUTE', h: 'HOUR', d: 'DAY' } as Record<string, TimeUnit>)[p] ?? (p.toUpperCase() as TimeUnit);
    return { kind: 'groupBy', unit, column };
  }
  const agg = token(node, 'Aggregate');
  const field = token(node, 'ChartIdent') ?? token(node, 'TimeRef');
  if (!agg && !field) return { kind: 'count', column };
  // As the reference: `*` in any other aggregate stands for the timestamp (`c:max(*)`).
  const fn = (agg ? agg.image.toLowerCase() : 'count') as ChartAggregate;
  return { kind: 'aggregate', fn, path: field ? field.image.split('.') : ['timestamp'], column };
}

/** `"a \"b\" \\ c"` → `a "b" \ c`; other backslashes stay as written. */
function unquote(image: string): string {
  return image.slice(1, -1).replace(/\\(["\\])/g, '$1');
}
