-- a time-bucket chart: count(CASE ...) per hour; the scan order no longer matters
select timestamp_trunc(t.timestamp, hour) as timestamp,
  count(case when response.status_code >= 500 then 1 else null end) as errors,
  count(*) as total
from `edge.logs.prod` t
cross join unnest(t.metadata) as m
left join unnest(m.response) as response on true
where t.timestamp > '2025-01-15T06:00:00.000Z' and t.project = 'beta'
group by timestamp
order by timestamp asc
