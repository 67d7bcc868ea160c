// JOIN ... USING (a, b): an equi-join on every listed column, each USING column shown once and
// first by `SELECT *`, the merged value per join type as BigQuery defines it.

import { describe, expect, it } from 'vitest';
import { errorOf, rows } from './run-sql.ts';

// a: (1,2,'a') (1,3,'b') (3,3,'e');  b: (1,2,'c') (2,2,'d') (1,3,'f')
const AB = `with a as (select 1 as x, 2 as y, 'a' as v union all select 1, 3, 'b' union all select 3, 3, 'e'),
  b as (select 1 as x, 2 as y, 'c' as w union all select 2, 2, 'd' union all select 1, 3, 'f')`;

describe('JOIN USING', () => {
  it('matches on every column, not as a cross join', () => {
    // (x,y) pairs in both: (1,2) → a/c, (1,3) → b/f.
    expect(rows(`${AB} select * from a join b using (x, y) order by v`)).toEqual([
      { x: 1, y: 2, v: 'a', w: 'c' },
      { x: 1, y: 3, v: 'b', w: 'f' },
    ]);
  });

  it('SELECT * puts the USING columns first, once', () => {
    // On y alone: y=2 → a×{c,d}; y=3 → {b,e}×f. Columns: y, then a's x, v, then b's w (b's x is
    // also a column, so * EXCEPT leaves the duplicate out).
    expect(rows(`${AB} select * except (x) from a join b using (y) order by v, w`)).toEqual([
      { y: 2, v: 'a', w: 'c' },
      { y: 2, v: 'a', w: 'd' },
      { y: 3, v: 'b', w: 'f' },
      { y: 3, v: 'e', w: 'f' },
    ]);
    expect(Object.keys(rows(`${AB} select * from a join b using (y, x) limit 1`)[0]!)).toEqual(['y', 'x', 'v', 'w']);
  });

  it('the USING column of a FULL JOIN is the non-NULL side; of a RIGHT JOIN the right side', () => {
    expect(rows(`${AB} select * from a full join b using (x, y) order by x, y`)).toEqual([
      { x: 1, y: 2, v: 'a', w: 'c' },
      { x: 1, y: 3, v: 'b', w: 'f' },
      { x: 2, y: 2, v: null, w: 'd' },
      { x: 3, y: 3, v: 'e', w: null },
    ]);
    expect(rows(`${AB} select x, a.x as ax, b.x as bx, w from a right join b using (x, y) order by w`)).toEqual([
      { x: 1, ax: 1, bx: 1, w: 'c' },
      { x: 2, ax: null, bx: 2, w: 'd' },
      { x: 1, ax: 1, bx: 1, w: 'f' },
    ]);
  });

  it('LEFT JOIN keeps unmatched left rows; a qualified star keeps its own USING columns', () => {
    expect(rows(`${AB} select v, w from a left join b using (x, y) order by v`)).toEqual([
      { v: 'a', w: 'c' },
      { v: 'b', w: 'f' },
      { v: 'e', w: null },
    ]);
    expect(rows(`${AB} select b.* from a join b using (x, y) order by w`)).toEqual([
      { x: 1, y: 2, w: 'c' },
      { x: 1, y: 3, w: 'f' },
    ]);
  });

  it('chains: a later USING sees the merged column', () => {
    const sql = `${AB}, c as (select 1 as x, 'g' as z) select x, v, w, z from a join b using (x, y) join c using (x) order by v`;
    expect(rows(sql)).toEqual([
      { x: 1, v: 'a', w: 'c', z: 'g' },
      { x: 1, v: 'b', w: 'f', z: 'g' },
    ]);
  });

  it('a USING column missing from one side is unknown_name', () => {
    expect(errorOf(`${AB} select * from a join b using (x, v)`).code).toBe('unknown_name');
  });
});
