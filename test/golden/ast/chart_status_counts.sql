select timestamp_trunc(t.timestamp, minute) as timestamp, count(case when response.status_code >= 500 then 1 else null end) as error_count, countif(response.status_code < 500) as ok_count
from edge_logs t cross join unnest(t.metadata) as m left join unnest(m.response) as response on true
where t.timestamp > '2025-01-15T05:00:00.000Z'
group by 1 order by timestamp asc
