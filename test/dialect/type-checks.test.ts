// Comparisons BigQuery rejects at bind time: STRING against INT64/FLOAT64, where both types are
// known — literals, typed columns, and record fields by their type in the source schema.

import { describe, expect, it } from 'vitest';
import { errorOf, rows } from './run-sql.ts';

const AUTH = 'from `auth.logs.prod` t cross join unnest(t.metadata) m';
const EDGE = 'from `edge.logs.prod` t cross join unnest(t.metadata) m cross join unnest(m.response) r';

describe('comparison type checks', () => {
  it("'a' = 1 is query_error naming both types in BigQuery's words", () => {
    expect(errorOf(`select 'a' = 1 as x`)).toMatchObject({
      code: 'query_error',
      message: expect.stringContaining('No matching signature for operator = for argument types: STRING, INT64'),
    });
  });

  it('a STRING field of the schema (auth metadata.status) against an INT64 literal', () => {
    expect(errorOf(`select count(*) as n ${AUTH} where m.status >= 400`)).toMatchObject({
      code: 'query_error',
      message: expect.stringContaining('No matching signature for operator >= for argument types: STRING, INT64'),
    });
    expect(errorOf(`select count(*) as n ${AUTH} where 400 < m.status`).message).toContain('argument types: INT64, STRING');
    expect(errorOf(`select count(*) as n ${AUTH} where m.status between 400 and 499`).message).toContain('operator BETWEEN for argument types: STRING, INT64, INT64');
  });

  it('IN with a list of the other type', () => {
    expect(errorOf(`select count(*) as n ${AUTH} where m.status in (401, 403)`).message).toContain('operator IN for argument types: STRING, INT64, INT64');
    expect(rows(`select count(*) as n ${AUTH} where m.status in ('401', '403')`)).toEqual([{ n: 3 }]);
  });

  it('an INT64 field of the schema (edge response.status_code) against a STRING literal', () => {
    expect(errorOf(`select count(*) as n ${EDGE} where r.status_code = '500'`).message).toContain('argument types: INT64, STRING');
  });

  it('matching types still run: the string "401" statuses, the numeric status codes', () => {
    // auth: a001, a003, a005 hold the string "401" (the others hold the number 200, NULL here).
    expect(rows(`select count(*) as n ${AUTH} where m.status = '401'`)).toEqual([{ n: 3 }]);
    expect(rows(`select count(*) as n ${AUTH} where safe_cast(m.status as int64) >= 400`)).toEqual([{ n: 3 }]);
  });

  it('fields the schema does not type are left to run time (a missing field reads NULL)', () => {
    expect(rows(`select count(*) as n ${AUTH} where m.no_such_field = 5`)).toEqual([{ n: 0 }]);
  });
});
