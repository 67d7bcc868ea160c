-- a per-hour count over the edge unnest chain read from hot columns, the filter memoised per dictionary value
select timestamp_trunc(t.timestamp, hour) as hour,
  countif(regexp_contains(r.path, '/rest')) as rest, count(*) as total
from `edge.logs.prod` t
left join unnest(t.metadata) as m on true
left join unnest(m.request) as r on true
where regexp_contains(r.url, 'alpha') and t.timestamp >= '2025-01-15T00:00:00Z'
group by hour
