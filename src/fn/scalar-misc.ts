// Conditional, numeric and array functions (COALESCE, IF, IFNULL, ROUND, ARRAY_LENGTH, ...).

import { checkLength } from './value-cap.ts';
import { registerScalar, simple } from './registry.ts';
import { RingqlError } from '../core/errors.ts';
import { commonType, type SqlType } from '../core/types.ts';
import { compareValues, sqlEquals, type Value } from '../core/values.ts';

const common = (ts: SqlType[]): SqlType => ts.reduce<SqlType>((a, b) => commonType(a, b) ?? 'ANY', 'NULL');

registerScalar(simple('COALESCE', 1, 64, common, (...a) => { for (const v of a) if (v !== null) return v; return null; }, false));
registerScalar(simple('IFNULL', 2, 2, common, (a, b) => (a !== null ? a : b), false));
registerScalar(simple('NULLIF', 2, 2, (t) => t[0]!, (a, b) => (a === null ? null : sqlEquals(a, b) === true ? null : a), false));
registerScalar(simple('IF', 3, 3, (t) => commonType(t[1]!, t[2]!) ?? 'ANY', (c, a, b) => (c === true ? a : b), false));

const num = (v: Value): number | null => (typeof v === 'number' ? v : null);
const numType = (t: SqlType[]): SqlType => (t.every((x) => x === 'INT64' || x === 'NULL') ? 'INT64' : 'FLOAT64');

registerScalar(simple('ABS', 1, 1, numType, (v) => (num(v) === null ? null : Math.abs(v as number))));
registerScalar(simple('SIGN', 1, 1, numType, (v) => (num(v) === null ? null : Math.sign(v as number))));
registerScalar(simple('ROUND', 1, 2, 'FLOAT64', (v, d) => {
  if (num(v) === null) return null;
  const f = 10 ** (typeof d === 'number' ? d : 0);
  const x = Math.abs(v as number) * f;
  return (Math.sign(v as number) * Math.round(x)) / f; // half away from zero, as BigQuery
}));
registerScalar(simple('TRUNC', 1, 2, 'FLOAT64', (v, d) => {
  if (num(v) === null) return null;
  const f = 10 ** (typeof d === 'number' ? d : 0);
  return Math.trunc((v as number) * f) / f;
}));
registerScalar(simple('FLOOR', 1, 1, 'FLOAT64', (v) => (num(v) === null ? null : Math.floor(v as number))));
registerScalar(simple('CEIL', 1, 1, 'FLOAT64', (v) => (num(v) === null ? null : Math.ceil(v as number))));
registerScalar(simple('CEILING', 1, 1, 'FLOAT64', (v) => (num(v) === null ? null : Math.ceil(v as number))));
registerScalar(simple('SQRT', 1, 1, 'FLOAT64', (v) => (num(v) === null ? null : Math.sqrt(v as number))));
registerScalar(simple('LN', 1, 1, 'FLOAT64', (v) => (num(v) === null ? null : Math.log(v as number))));
registerScalar(simple('LOG10', 1, 1, 'FLOAT64', (v) => (num(v) === null ? null : Math.log10(v as number))));
registerScalar(simple('POW', 2, 2, 'FLOAT64', (a, b) => (num(a) === null || num(b) === null ? null : (a as number) ** (b as number))));
registerScalar(simple('POWER', 2, 2, 'FLOAT64', (a, b) => (num(a) === null || num(b) === null ? null : (a as number) ** (b as number))));
registerScalar(simple('SAFE_DIVIDE', 2, 2, 'FLOAT64', (a, b) => (num(a) === null || num(b) === null || b === 0 ? null : (a as number) / (b as number))));
registerScalar(simple('DIV', 2, 2, 'INT64', (a, b) => {
  if (num(a) === null || num(b) === null) return null;
  if (b === 0) throw new RingqlError('query_error', 'division by zero: DIV(' + a + ', 0)');
  return Math.trunc((a as number) / (b as number));
}));
registerScalar(simple('MOD', 2, 2, 'INT64', (a, b) => {
  if (num(a) === null || num(b) === null) return null;
  if (b === 0) throw new RingqlError('query_error', 'division by zero: MOD(' + a + ', 0)');
  return (a as number) % (b as number);
}));
const extreme = (dir: 1 | -1) => (...a: Value[]): Value => {
  let best: Value = null;
  for (const v of a) {
    if (v === null) return null;
    if (best === null || (compareValues(v, best) ?? 0) * dir > 0) best = v;
  }
  return best;
};
registerScalar(simple('GREATEST', 1, 64, common, extreme(1), false));
registerScalar(simple('LEAST', 1, 64, common, extreme(-1), false));

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
