// Parenthesised joins in FROM: `from (a join b using (x)) join c on ...` and a join on the right
// side of another, bound with BigQuery's names and column order.

import { describe, expect, it } from 'vitest';
import { rows } from './run-sql.ts';
import { parseQuery } from '../../src/sql/parse.ts';
import { printSql } from '../../src/sql/print.ts';

// a: (1,2,'a') (1,3,'b') (3,3,'e');  b: (1,2,'c') (2,2,'d') (1,3,'f');  c: ('c',10) ('f',20)
const ABC = `with a as (select 1 as x, 2 as y, 'a' as v union all select 1, 3, 'b' union all select 3, 3, 'e'),
  b as (select 1 as x, 2 as y, 'c' as w union all select 2, 2, 'd' union all select 1, 3, 'f'),
  c as (select 'c' as w, 10 as k union all select 'f', 20)`;

describe('parenthesised joins', () => {
  it('a parenthesised join on the left', () => {
    // a⋈b on (x,y): (a,c) (b,f); then c on w: both match, k 10 and 20.
    expect(rows(`${ABC} select v, b.w, k from (a join b using (x, y)) join c on c.w = b.w order by k`)).toEqual([
      { v: 'a', w: 'c', k: 10 },
      { v: 'b', w: 'f', k: 20 },
    ]);
  });

  it('a parenthesised join on the right, joined USING a column of its right side', () => {
    // Columns: w (merged), c's k, then the inner join's x, y (merged), a's v (b's w is merged away).
    expect(rows(`${ABC} select * from c join (a join b using (x, y)) using (w) order by k`)).toEqual([
      { w: 'c', k: 10, x: 1, y: 2, v: 'a' },
      { w: 'f', k: 20, x: 1, y: 3, v: 'b' },
    ]);
  });

  it('an outer join whose right side is a parenthesised join keeps unmatched left rows', () => {
    // a⋈b on x alone: (a,c) (a,f) (b,c) (b,f); with a.y = 2 only v=a remains, for each w.
    expect(rows(`${ABC} select k, v from c left join (a join b using (x)) on c.w = b.w and a.y = 2 order by k, v`)).toEqual([
      { k: 10, v: 'a' },
      { k: 20, v: 'a' },
    ]);
    expect(rows(`${ABC} select k, v from c left join (a join b using (x)) on c.w = b.w and a.y = 9 order by k`)).toEqual([
      { k: 10, v: null },
      { k: 20, v: null },
    ]);
  });

  it('a subquery in parentheses is still a subquery, also when it starts with a parenthesis', () => {
    expect(rows(`select * from ((select 1 as x) union all (select 2)) as q order by x`)).toEqual([{ x: 1 }, { x: 2 }]);
    expect(rows(`select x from ((select 1 as x) join (select 1 as x, 'z' as z) using (x))`)).toEqual([{ x: 1 }]);
  });

  it('prints a right-hand join in parentheses, so the text parses back to the same tree', () => {
    const text = printSql(parseQuery(`select * from c join (a join b using (x)) using (w)`));
    const again = parseQuery(text);
    expect(again.body.kind === 'select' && again.body.from?.kind === 'join' && again.body.from.right.kind).toBe('join');
    expect(printSql(again)).toBe(text);
  });
});
