// Array functions (ARRAY_LENGTH, ARRAY_TO_STRING, ARRAY_CONCAT, ARRAY_REVERSE, GENERATE_ARRAY); results
// are capped in size like strings (value-cap.ts).

import { checkLength } from './value-cap.ts';
import { registerScalar, simple } from './registry.ts';
import { RingqlError } from '../core/errors.ts';
import type { Value } from '../core/values.ts';

const num = (v: Value): number | null => (typeof v === 'number' ? v : null);

registerScalar(simple('ARRAY_LENGTH', 1, 1, 'INT64', (a) => (Array.isArray(a) ? a.length : null)));
registerScalar(simple('ARRAY_TO_STRING', 2, 3, 'STRING', (a, sep, nul) => {
  if (!Array.isArray(a) || typeof sep !== 'string') return null;
  const parts: string[] = [];
  let len = 0;
  for (const v of a) {
    const s = v === null ? (typeof nul === 'string' ? nul : null) : typeof v === 'string' ? v : JSON.stringify(v);
    if (s === null) continue;
    parts.push(s);
    len += s.length + sep.length;
  }
  checkLength('ARRAY_TO_STRING: the result', len);
  return parts.join(sep);
}));
registerScalar(simple('ARRAY_CONCAT', 1, 64, 'ARRAY', (...a) => {
  let n = 0;
  for (const x of a) { if (!Array.isArray(x)) return null; n += x.length; }
  checkLength('ARRAY_CONCAT: the array', n * 8);
  const out: Value[] = [];
  for (const x of a as Value[][]) for (const v of x) out.push(v);
  return out;
}));
registerScalar(simple('ARRAY_REVERSE', 1, 1, 'ARRAY', (a) => (Array.isArray(a) ? [...a].reverse() : null)));
registerScalar(simple('GENERATE_ARRAY', 2, 3, 'ARRAY', (a, b, s) => {
  if (num(a) === null || num(b) === null) return null;
  const step = s === undefined ? 1 : num(s);
  if (step === null) return null;
  if (step === 0) throw new RingqlError('query_error', 'GENERATE_ARRAY: step must not be 0');
  const n = Math.floor(((b as number) - (a as number)) / step) + 1;
  if (n > 100_000) throw new RingqlError('query_error', 'GENERATE_ARRAY would produce more than 100000 elements');
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((a as number) + i * step);
  return out;
}));
