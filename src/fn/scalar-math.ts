// Numeric functions (ABS, SIGN, ROUND, TRUNC, FLOOR, CEIL, SQRT, LN, LOG10, POW, SAFE_DIVIDE, DIV, MOD):
// NULL in, NULL out; DIV and MOD by zero are query errors, as in BigQuery.

import { registerScalar, simple } from './registry.ts';
import { RingqlError } from '../core/errors.ts';
import type { SqlType } from '../core/types.ts';
import type { Value } from '../core/values.ts';

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
