// `m.arr:@>v` (the array holds v) and `m.arr:@>~"re"` (an element matches), as the reference's LQL
// compiles them for BigQuery: `v IN UNNEST(arr)` and `EXISTS(SELECT * FROM UNNEST(arr) AS x WHERE ...)`.

import { describe, expect, it } from 'vitest';
import { errorOf, id, int, onlyWhere, str } from './helpers.ts';
import { lqlIds, lqlSql, minutesAgo } from './store-rows.ts';

const arr = id('f_metadata', 'arr');
const events = [
  { id: 'ab', timestamp: minutesAgo(1), event_message: 'm', metadata: { arr: ['a', 'b'] } },
  { id: 'c', timestamp: minutesAgo(2), event_message: 'm', metadata: { arr: ['c'] } },
  { id: 'none', timestamp: minutesAgo(3), event_message: 'm', metadata: { other: 1 } },
  { id: 'nums', timestamp: minutesAgo(4), event_message: 'm', metadata: { arr: ['x'], n: [1, 20] } },
];

describe('list contains :@>', () => {
  it('is `value IN UNNEST(field)`, the value typed as elsewhere', () => {
    expect(onlyWhere('m.arr:@>a')).toEqual({ kind: 'inUnnest', operand: str('a'), not: false, array: arr });
    expect(onlyWhere('m.arr:@>20')).toEqual({ kind: 'inUnnest', operand: int(20), not: false, array: arr });
    expect(onlyWhere('m.arr:@>"two words"')).toEqual({ kind: 'inUnnest', operand: str('two words'), not: false, array: arr });
    expect(lqlSql('m.arr:@>a')).toContain("WHERE 'a' IN UNNEST(f_metadata.arr)");
  });
  it('rows: only those whose array holds the value', () => {
    // 'ab' holds a; '@>a' is not the text "@>a" any more (that matched nothing).
    expect(lqlIds('m.arr:@>a', events)).toEqual(['ab']);
    expect(lqlIds('m.arr:@>c', events)).toEqual(['c']);
    expect(lqlIds('m.n:@>20', events)).toEqual(['nums']);
    expect(lqlIds('m.n:@>2', events)).toEqual([]);
    // Negated: every row with a record but without the value, a missing array included (NULL).
    expect(lqlIds('-m.arr:@>a', events)).toEqual(['c', 'none', 'nums']);
  });
  it('NULL cannot be a list element to look for', () => {
    expect(errorOf(() => onlyWhere('m.arr:@>NULL')).code).toBe('syntax_error');
  });
});

describe('list contains a match :@>~', () => {
  it('is EXISTS over the unnested array with REGEXP_CONTAINS, quoted or bare', () => {
    const want = {
      kind: 'exists',
      query: { kind: 'query', body: { kind: 'select', distinct: false, items: [{ kind: 'star' }], from: { kind: 'unnest', expr: arr, alias: 'x' }, where: { kind: 'call', name: 'REGEXP_CONTAINS', args: [id('x'), str('^b')] } } },
    };
    expect(onlyWhere('m.arr:@>~^b')).toEqual(want);
    expect(onlyWhere('m.arr:@>~"^b"')).toEqual(want);
    expect(lqlSql('m.arr:@>~"^b"')).toContain("WHERE EXISTS ( SELECT * FROM UNNEST(f_metadata.arr) AS x WHERE REGEXP_CONTAINS(x, '^b') ) ORDER BY");
  });
  it('rows: those with an element the regex finds; negated, the others (missing arrays too)', () => {
    expect(lqlIds('m.arr:@>~"^b"', events)).toEqual(['ab']);
    expect(lqlIds('m.arr:@>~"^c$"', events)).toEqual(['c']);
    expect(lqlIds('m.arr:@>~"^[ac]$"', events)).toEqual(['ab', 'c']);
    expect(lqlIds('m.arr:@>~x', events)).toEqual(['nums']);
    expect(lqlIds('-m.arr:@>~"^[ac]$"', events)).toEqual(['none', 'nums']);
  });
});
