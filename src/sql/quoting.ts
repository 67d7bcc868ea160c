// Reading and writing quoted SQL text: string/bytes literal escapes and backtick names, shared by
// the parser (decode) and the printer (encode) so that printed text reads back to the same value.

import { RESERVED_WORDS } from '../../grammar/sql-tokens.ts';

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
  '\\': '\\', '?': '?', '"': '"', "'": "'", '`': '`',
};

/** Undoes backslash escapes; returns an error text (not a throw) so the caller can add the position. */
export function unescapeBody(body: string): { value: string } | { error: string } {
  if (!body.includes('\\')) return { value: body };
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e === undefined) return { error: 'a backslash ends the literal' };
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    const hex = (len: number): string | null => {
      const digits = body.slice(i + 1, i + 1 + len);
      return digits.length === len && /^[0-9a-fA-F]+$/.test(digits) ? digits : null;
    };
    let code: number | null = null;
    let used = 0;
    if (e === 'x' || e === 'X') {
      const h = hex(2);
      if (h) { code = parseInt(h, 16); used = 2; }
    } else if (e === 'u') {
      const h = hex(4);
      if (h) { code = parseInt(h, 16); used = 4; }
    } else if (e === 'U') {
      const h = hex(8);
      if (h) { code = parseInt(h, 16); used = 8; }
    } else if (/[0-7]/.test(e)) {
      const o = body.slice(i, i + 3);
      if (/^[0-7]{3}$/.test(o)) { code = parseInt(o, 8); used = 2; }
    }
    if (code === null || code > 0x10ffff) return { error: `invalid escape sequence "\\${e}"` };
    out += String.fromCodePoint(code);
    i += used;
  }
  return { value: out };
}

export interface DecodedString {
  value: string;
  bytes: boolean;
}

/** A StringLit token image (`'a'`, `"a"`, `'''a'''`, `r'\d'`, `b'x'`) to its value. */
export function decodeStringLiteral(image: string): DecodedString | { error: string } {
  const prefix = /^[rRbB]*/.exec(image)![0].toLowerCase();
  const rest = image.slice(prefix.length);
  const q = rest.startsWith("'''") || rest.startsWith('"""') ? 3 : 1;
  const body = rest.slice(q, rest.length - q);
  const bytes = prefix.includes('b');
  if (prefix.includes('r')) return { value: body, bytes };
  const u = unescapeBody(body);
  return 'error' in u ? u : { value: u.value, bytes };
}

/** A backtick token image to the name it spells. */
export function decodeBacktick(image: string): { value: string } | { error: string } {
  return unescapeBody(image.slice(1, -1));
}

function escapeChars(s: string, quote: string): string {
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f || (code >= 0xd800 && code <= 0xdfff)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}

/** A value as a single-quoted literal: `'it\'s'`. */
export function quoteString(value: string): string {
  return `'${escapeChars(value, "'")}'`;
}

export function quoteBacktick(name: string): string {
  return `\`${escapeChars(name, '`')}\``;
}

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True when a name can be written bare where a reserved word would be read as a keyword. */
export function isPlainName(name: string): boolean {
  return PLAIN_NAME.test(name) && !RESERVED_WORDS.has(name.toUpperCase());
}

/** A name as written in SQL: bare when possible, else in backticks. `afterDot` allows reserved words. */
export function printName(name: string, opts: { quoted?: boolean; afterDot?: boolean } = {}): string {
  if (opts.quoted) return quoteBacktick(name);
  if (opts.afterDot ? PLAIN_NAME.test(name) : isPlainName(name)) return name;
  return quoteBacktick(name);
}
