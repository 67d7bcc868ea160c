// String and regular-expression functions (REGEXP_* use RE2 semantics through src/core/regex.ts).

import { registerScalar, simple, type Kernel } from './registry.ts';
import { compileRegex } from '../core/regex.ts';
import { RingqlError } from '../core/errors.ts';
import { checkLength } from './value-cap.ts';
import type { Value } from '../core/values.ts';

const str = (v: Value): string | null => (typeof v === 'string' ? v : null);

function regexFn(name: string, ret: 'BOOL' | 'STRING' | 'ARRAY', minArgs: number, maxArgs: number, run: (s: string, re: ReturnType<typeof compileRegex>, rest: Value[]) => Value): void {
  const kernel: Kernel = (s, p, ...rest) => {
    const ss = str(s), pp = str(p);
    if (ss === null || pp === null) return null;
    return run(ss, compileRegex(pp, 'row'), rest); // not a constant: the pattern comes from rows
  };
  registerScalar({
    name, minArgs, maxArgs, type: () => ret, strict: true, kernel,
    specialize: (consts) => {
      const p = consts[1];
      if (typeof p !== 'string') return null;
      const re = compileRegex(p); // an invalid constant pattern fails at plan time with query_error
      return (s, _p, ...rest) => { const ss = str(s); return ss === null ? null : run(ss, re, rest); };
    },
  });
}

regexFn('REGEXP_CONTAINS', 'BOOL', 2, 2, (s, re) => re.test(s));
regexFn('REGEXP_EXTRACT', 'STRING', 2, 4, (s, re) => re.extract(s));
regexFn('REGEXP_SUBSTR', 'STRING', 2, 4, (s, re) => re.extract(s));
regexFn('REGEXP_EXTRACT_ALL', 'ARRAY', 2, 2, (s, re) => re.extractAll(s));
regexFn('REGEXP_REPLACE', 'STRING', 3, 3, (s, re, rest) => (typeof rest[0] === 'string' ? re.replace(s, rest[0]) : null));

registerScalar(simple('STRPOS', 2, 2, 'INT64', (s, sub) => (str(s) === null || str(sub) === null ? null : (s as string).indexOf(sub as string) + 1)));
registerScalar(simple('INSTR', 2, 2, 'INT64', (s, sub) => (str(s) === null || str(sub) === null ? null : (s as string).indexOf(sub as string) + 1)));
registerScalar(simple('LOWER', 1, 1, 'STRING', (s) => str(s)?.toLowerCase() ?? null));
registerScalar(simple('UPPER', 1, 1, 'STRING', (s) => str(s)?.toUpperCase() ?? null));
registerScalar(simple('LENGTH', 1, 1, 'INT64', (s) => (typeof s === 'string' ? [...s].length : Array.isArray(s) ? s.length : null)));
registerScalar(simple('CHAR_LENGTH', 1, 1, 'INT64', (s) => (typeof s === 'string' ? [...s].length : null)));
registerScalar(simple('BYTE_LENGTH', 1, 1, 'INT64', (s) => (typeof s === 'string' ? Buffer.byteLength(s) : null)));
registerScalar(simple('STARTS_WITH', 2, 2, 'BOOL', (s, p) => (str(s) === null || str(p) === null ? null : (s as string).startsWith(p as string))));
registerScalar(simple('ENDS_WITH', 2, 2, 'BOOL', (s, p) => (str(s) === null || str(p) === null ? null : (s as string).endsWith(p as string))));
registerScalar(simple('CONCAT', 1, 64, 'STRING', (...a) => {
  const parts = new Array<string>(a.length);
  let len = 0;
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    if (v === null) return null;
    const s = typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
    parts[i] = s;
    len += s.length;
  }
  checkLength('CONCAT: the result', len);
  return parts.join('');
}));
registerScalar(simple('REPLACE', 3, 3, 'STRING', (s, from, to) => {
  if (str(s) === null || str(from) === null || str(to) === null) return null;
  if (from === '') return s;
  const ss = s as string, f = from as string, t = to as string;
  if (t.length > f.length) {
    // Count first: the result is measured against the value cap before it is built.
    let count = 0;
    for (let at = ss.indexOf(f); at >= 0; at = ss.indexOf(f, at + f.length)) count++;
    checkLength('REPLACE: the result', ss.length + count * (t.length - f.length));
  }
  return ss.split(f).join(t);
}));
const substr: Kernel = (s, pos, len) => {
  const ss = str(s);
  if (ss === null || typeof pos !== 'number') return null;
  const chars = [...ss];
  let start = pos > 0 ? pos - 1 : pos < 0 ? Math.max(chars.length + pos, 0) : 0;
  if (start > chars.length) start = chars.length;
  if (len === undefined) return chars.slice(start).join('');
  if (typeof len !== 'number') return null;
  if (len < 0) throw new RingqlError('query_error', 'SUBSTR: length must not be negative');
  return chars.slice(start, start + len).join('');
};
registerScalar(simple('SUBSTR', 2, 3, 'STRING', substr));
registerScalar(simple('SUBSTRING', 2, 3, 'STRING', substr));
const trimKernel = (mode: 'both' | 'left' | 'right'): Kernel => (s, chars) => {
  const ss = str(s);
  if (ss === null) return null;
  if (chars === undefined) return mode === 'both' ? ss.trim() : mode === 'left' ? ss.trimStart() : ss.trimEnd();
  const cs = str(chars);
  if (cs === null) return null;
  const set = new Set([...cs]);
  const arr = [...ss];
  let a = 0, b = arr.length;
  if (mode !== 'right') while (a < b && set.has(arr[a]!)) a++;
  if (mode !== 'left') while (b > a && set.has(arr[b - 1]!)) b--;
  return arr.slice(a, b).join('');
};
registerScalar(simple('TRIM', 1, 2, 'STRING', trimKernel('both')));
registerScalar(simple('LTRIM', 1, 2, 'STRING', trimKernel('left')));
registerScalar(simple('RTRIM', 1, 2, 'STRING', trimKernel('right')));
registerScalar(simple('SPLIT', 1, 2, 'ARRAY', (s, d) => {
  const ss = str(s);
  if (ss === null) return null;
  const dd = d === undefined ? ',' : str(d);
  if (dd === null) return null;
  if (ss === '') return [];
  return dd === '' ? [...ss] : ss.split(dd);
}));
registerScalar(simple('REVERSE', 1, 1, 'STRING', (s) => (str(s) === null ? null : [...(s as string)].reverse().join(''))));
registerScalar(simple('LEFT', 2, 2, 'STRING', (s, n) => (str(s) === null || typeof n !== 'number' ? null : [...(s as string)].slice(0, Math.max(0, n)).join(''))));
registerScalar(simple('RIGHT', 2, 2, 'STRING', (s, n) => (str(s) === null || typeof n !== 'number' ? null : n <= 0 ? '' : [...(s as string)].slice(-n).join(''))));
registerScalar(simple('REPEAT', 2, 2, 'STRING', (s, n) => {
  if (str(s) === null || typeof n !== 'number') return null;
  if (n < 0) throw new RingqlError('query_error', 'REPEAT: the count must not be negative');
  checkLength('REPEAT: the result', (s as string).length * n);
  return (s as string).repeat(n);
}));
registerScalar(simple('TO_JSON_STRING', 1, 2, 'STRING', (v) => JSON.stringify(v), false));
registerScalar(simple('FORMAT', 1, 64, 'STRING', (f, ...a) => {
  const ff = str(f);
  if (ff === null) return null;
  let len = ff.length;
  for (const v of a) len += typeof v === 'string' ? v.length : 24;
  checkLength('FORMAT: the result', len);
  let i = 0;
  return ff.replace(/%(-?\d*)(\.\d+)?([sdifgeqt%])/g, (_m, _w, prec: string | undefined, conv: string) => {
    if (conv === '%') return '%';
    const v = a[i++];
    if (v === null || v === undefined) return 'NULL';
    if (conv === 'f' && typeof v === 'number') return v.toFixed(prec ? Number(prec.slice(1)) : 6);
    if (conv === 'd' || conv === 'i') return typeof v === 'number' ? String(Math.trunc(v)) : String(v);
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
}));

