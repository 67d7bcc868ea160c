select
  array(select as_struct from unnest(x) as as_struct where as_struct > 0) as positives,
  array<string>['a', "b", '''c'''],
  struct(1 as one, 'two' as two),
  (1, 'a'),
  safe.parse_timestamp('%Y', '2024'),
  timestamp_trunc(t.timestamp, week(monday)),
  date '2024-01-01', datetime '2024-01-01 10:00:00',
  x[ordinal(1)], y[safe_ordinal(2)], dates[0].start, z[offset(0)].field.sub,
  format_timestamp('%F', t.timestamp, 'UTC'),
  unix_micros(t.timestamp) >> 3 & 255 | 1 ^ 2 << 1,
  ~5, +6, 1.5e3, .25, 0x1F, 18446744073709551615, b'bytes\x00', 'it\'s\n',
  string_agg(distinct name, ', ' order by name desc limit 3),
  array_agg(x ignore nulls),
  left(event_message, 3), right(event_message, 2),
  current_date, current_timestamp,
  cast(x as struct<a int64, b array<string>>),
  interval,
  start, `select`, `function-relay-logs`.id
from t
where x is false and y is not false and z is true and w not between 1 and 2 and v not in unnest(arr) and @p is null
