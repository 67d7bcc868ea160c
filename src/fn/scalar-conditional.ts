// Functions that choose one of their arguments: COALESCE, IFNULL, NULLIF, IF, GREATEST, LEAST.

import { registerScalar, simple } from './registry.ts';
import { commonType, type SqlType } from '../core/types.ts';
import { compareValues, sqlEquals, type Value } from '../core/values.ts';

const common = (ts: SqlType[]): SqlType => ts.reduce<SqlType>((a, b) => commonType(a, b) ?? 'ANY', 'NULL');

registerScalar(simple('COALESCE', 1, 64, common, (...a) => { for (const v of a) if (v !== null) return v; return null; }, false));
registerScalar(simple('IFNULL', 2, 2, common, (a, b) => (a !== null ? a : b), false));
registerScalar(simple('NULLIF', 2, 2, (t) => t[0]!, (a, b) => (a === null ? null : sqlEquals(a, b) === true ? null : a), false));
registerScalar(simple('IF', 3, 3, (t) => commonType(t[1]!, t[2]!) ?? 'ANY', (c, a, b) => (c === true ? a : b), false));

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
