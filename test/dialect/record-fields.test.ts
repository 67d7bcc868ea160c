// Reading a field of something that is not one record is BigQuery's error, decided from the
// source schema: a repeated record needs its own UNNEST; a plain value (`m[0]`, `m.host`) has no fields.

import { describe, expect, it } from 'vitest';
import { errorOf, rows } from './run-sql.ts';

const PG = 'from `postgres.logs` t cross join unnest(t.metadata) m';

describe('field access on records only', () => {
  it('a field of a repeated record read without UNNEST is query_error (not a silent 0)', () => {
    const e = errorOf(`select count(*) as n ${PG} where m.parsed.error_severity = 'ERROR'`);
    expect(e.code).toBe('query_error');
    expect(e.message).toContain('Cannot access field error_severity on a value with type ARRAY');
    expect(errorOf('select m.request.path from `edge.logs.prod` t cross join unnest(t.metadata) m').code).toBe('query_error');
  });

  it('with its own UNNEST the same filter counts the rows', () => {
    // test/fixtures/postgres.logs.ndjson: 4 of its 12 events have parsed.error_severity "ERROR".
    expect(rows(`select count(*) as n ${PG} cross join unnest(m.parsed) as p where p.error_severity = 'ERROR'`)).toEqual([{ n: 4 }]);
  });

  it('m[0] is the first field of the record (host, a STRING): it has no fields', () => {
    expect(rows(`select m[0] as x ${PG} order by t.id limit 1`)).toEqual([{ x: 'db' }]);
    expect(errorOf(`select m[0].level ${PG}`)).toMatchObject({ code: 'query_error', message: expect.stringContaining('on a value with type STRING') });
  });

  it('a scalar field has no fields', () => {
    expect(errorOf(`select m.host.name ${PG}`).message).toContain('Cannot access field name on a value with type STRING');
  });

  it('a field the schema does not know still reads NULL (log metadata is open-ended)', () => {
    expect(rows(`select m.no_such.deeper as x ${PG} order by t.id limit 1`)).toEqual([{ x: null }]);
  });
});

