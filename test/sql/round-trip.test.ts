// Round trips: printing a parsed query and parsing the text again gives the same AST (positions
// aside), for every golden input and for a list of dialect snippets.

import { describe, expect, it } from 'vitest';
import type { Query } from '../../src/sql/ast.ts';
import { parseQuery, parseSql } from '../../src/sql/parse.ts';
import { printSql } from '../../src/sql/print.ts';
import { astGoldenInputs, stripPos } from './helpers.ts';

const SNIPPETS = [
  'select 1',
  'select a, b, from t',
  'select distinct a from t',
  'select all a from t',
  'select * except (a, b) from t',
  'select * replace (a + 1 as a) from t',
  'select t.* except (x) from `p.d.t` as t',
  'select `select`, `a b`.`c-d`, x.`end`, y.end from t',
  'select a as `timestamp`, b timestamp, c as start, d count from t',
  'select -1, -(1), - -1, -x, +x, ~x, 1 - -1, 2 * -3, -1.5, -0.0, 1e3, 1.0, .5, 9007199254740993, -9223372036854775808',
  "select 'a\\'', 'x', \"y\", '''multi\nline''', r'\\d+', b'\\x01', 'tab\\there', 'q\\'s', \"d\\\"q\"",
  'select a || b || c, a + b * c, (a + b) * c, a - (b - c), a / b / c, a / (b / c)',
  'select not a = b, not (a and b), a and not b or c, (a or b) and c, a = (b = c)',
  'select a is null, a is not null, a is true, a is not false, (a = b) is null',
  'select a in (1, 2), a not in (select x from t), a in unnest(arr), a not in unnest([1, 2])',
  'select a between 1 and 2, a not between b + 1 and c * 2, a like \'x%\', a not like b',
  'select case when a then 1 when b then 2 else 3 end, case x when 1 then \'a\' end',
  'select cast(a as int64), safe_cast(b as string), cast(c as array<string>), cast(d as numeric(10, 2))',
  'select timestamp_sub(current_timestamp(), interval 1 hour), timestamp_add(ts, interval -5 minute), interval @n day',
  'select timestamp_trunc(ts, minute), timestamp_trunc(ts, week(monday)), extract(dayofweek from ts), extract(week(sunday) from d)',
  "select timestamp '2024-01-01 00:00:00', datetime '2024-01-01', date '2024-01-01', numeric '1.5'",
  'select a[offset(0)], a[safe_offset(1)], a[ordinal(1)], a[safe_ordinal(2)], a[0], a[i + 1]',
  'select approx_quantiles(x, 100)[offset(50)], dates[0].start, x[offset(0)].field, f(x).y, (a).b',
  'select count(*), count(distinct x), countif(x > 1), sum(x), safe.parse_date(\'%F\', s)',
  'select array_agg(x order by y desc limit 3), array_agg(x ignore nulls), string_agg(x, \',\' respect nulls)',
  'select array(select x from unnest(arr) as x), [1, 2, 3], [], array<int64>[1], struct(1 as a, 2), struct(), (1, 2)',
  'select exists (select 1 from t), (select max(x) from t) as m, ((select 1)) as n',
  'select if(a, b, c), ifnull(a, 0), coalesce(a, b, c), left(s, 2), right(s, 2), current_date, current_timestamp',
  'select a from t where @p is null or a > @p order by a asc nulls first, b desc nulls last limit @limit offset 5',
  'select a from t group by 1, a having count(*) > 1 qualify a > 0',
  'select * from a, b, c',
  'select * from a cross join unnest(a.arr) as x left join unnest(x.y) y on true',
  'select * from a join b on a.id = b.id inner join c using (id) left outer join d on true full join e on false right outer join f on 1 = 1',
  'select * from unnest([1, 2]) as x with offset as o, unnest(arr) with offset',
  'select * from (select 1 as a) as s, (select 2) t',
  'select * from t, t.arr as a, `edge.logs.prod`.metadata',
  'with a as (select 1 as x), b as (select x from a) select * from b',
  'with a as (with inner_cte as (select 1 as x) select x from inner_cte) select x from a',
  'select 1 union all select 2 union distinct select 3',
  '(select 1 limit 1) union all (select 2 order by 1) order by 1 limit 2',
  'select 1 intersect distinct select 1 except distinct select 2',
  'select a << 2, a >> 2, a & b | c ^ d, a > b >> 1',
  'select x from t where a != b and a <> c and a <= b and a >= b and a < b and a > b',
  'select `interval`, interval, interval + 1 as i2 from t',
];

function roundTrip(q: Query): void {
  const printed = printSql(q);
  let again: Query;
  try {
    again = parseQuery(printed);
  } catch (e) {
    throw new Error(`printed SQL does not parse: ${(e as Error).message}\n${printed}`);
  }
  expect(stripPos(again), printed).toEqual(stripPos(q));
}

describe('print → parse round trip', () => {
  for (const [file, text] of astGoldenInputs()) {
    it(`golden ${file.split('/').pop()}`, () => {
      for (const s of parseSql(text)) if (s.kind === 'query') roundTrip(s);
    });
  }
  for (const sql of SNIPPETS) {
    it(sql.slice(0, 70), () => roundTrip(parseQuery(sql)));
  }
  it('printing is stable (print ∘ parse ∘ print = print)', () => {
    for (const sql of SNIPPETS) {
      const once = printSql(parseQuery(sql));
      expect(printSql(parseQuery(once))).toBe(once);
    }
  });
});
