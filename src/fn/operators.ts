// Arithmetic, comparison, concatenation and LIKE operators as kernels ($+, $=, $LIKE, ...),
// with BigQuery's rules: `/` is FLOAT64, division by zero is an error, INT64 stays INT64.

import { checkLength } from './value-cap.ts';
import { registerScalar, simple, type Kernel } from './registry.ts';
import { RingqlError } from '../core/errors.ts';
import { compareValues, sqlEquals, type Value } from '../core/values.ts';
import { compileRegex } from '../core/regex.ts';
import type { SqlType } from '../core/types.ts';

const arithType = (t: SqlType[]): SqlType => (t.every((x) => x === 'INT64' || x === 'NULL') ? 'INT64' : t.some((x) => x === 'ANY') ? 'ANY' : 'FLOAT64');
const n = (v: Value): v is number => typeof v === 'number';

registerScalar(simple('$+', 2, 2, arithType, (a, b) => (n(a) && n(b) ? a + b : null)));
registerScalar(simple('$-', 2, 2, arithType, (a, b) => (n(a) && n(b) ? a - b : null)));
registerScalar(simple('$*', 2, 2, arithType, (a, b) => (n(a) && n(b) ? a * b : null)));
registerScalar(simple('$/', 2, 2, 'FLOAT64', (a, b) => {
  if (!n(a) || !n(b)) return null;
  if (b === 0) throw new RingqlError('query_error', `division by zero: ${a} / 0; use SAFE_DIVIDE to get NULL instead`);
  return a / b;
}));
registerScalar(simple('$neg', 1, 1, (t) => t[0]!, (a) => (n(a) ? -a : null)));
registerScalar(simple('$||', 2, 2, 'STRING', (a, b) => {
  if (typeof a !== 'string' || typeof b !== 'string') return null;
  checkLength('The || result', a.length + b.length);
  return a + b;
}));

const cmp = (name: string, test: (c: number) => boolean): void => {
  const kernel: Kernel = (a, b) => {
    const c = compareValues(a, b);
    return c === null ? null : test(c);
  };
  registerScalar(simple(name, 2, 2, 'BOOL', kernel));
};
registerScalar(simple('$=', 2, 2, 'BOOL', (a, b) => sqlEquals(a, b)));
registerScalar(simple('$!=', 2, 2, 'BOOL', (a, b) => { const e = sqlEquals(a, b); return e === null ? null : !e; }));
cmp('$<', (c) => c < 0);
cmp('$<=', (c) => c <= 0);
cmp('$>', (c) => c > 0);
cmp('$>=', (c) => c >= 0);

/** LIKE pattern → an anchored RE2 pattern (`%` any run, `_` one character, `\` escapes). */
export function likeToRegex(p: string): string {
  let out = '(?s)^';
  for (let i = 0; i < p.length; i++) {
    const ch = p[i]!;
    if (ch === '\\' && i + 1 < p.length) out += escapeRe(p[++i]!);
    else if (ch === '%') out += '.*';
    else if (ch === '_') out += '.';
    else out += escapeRe(ch);
  }
  return out + '$';
}
const escapeRe = (c: string): string => (/[\\^$.|?*+()[\]{}]/.test(c) ? '\\' + c : c);

registerScalar({
  ...simple('$LIKE', 2, 2, 'BOOL', (s, p) => (typeof s === 'string' && typeof p === 'string' ? compileRegex(likeToRegex(p)).test(s) : null)),
  specialize: (c) => {
    if (typeof c[1] !== 'string') return null;
    const re = compileRegex(likeToRegex(c[1]));
    return (s) => (typeof s === 'string' ? re.test(s) : null);
  },
});

registerScalar(simple('$ISNULL', 1, 1, 'BOOL', (a) => a === null, false));
registerScalar(simple('$ISTRUE', 1, 1, 'BOOL', (a) => a === true, false));
registerScalar(simple('$ISFALSE', 1, 1, 'BOOL', (a) => a === false, false));
