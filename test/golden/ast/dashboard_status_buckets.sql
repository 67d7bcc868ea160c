-- dashboard: requests per status class and method over the last day
select
  timestamp_trunc(t.timestamp, hour) as hour,
  case
    when response.status_code between 200 and 299 then '2xx'
    when response.status_code between 400 and 499 then '4xx'
    when response.status_code >= 500 then '5xx'
    else 'other'
  end as status_class,
  upper(request.method) as method,
  count(distinct request.path) as paths,
  count(*) as requests,
  avg(safe_cast(response.origin_time as float64)) as avg_ms
from `edge.logs.prod` as t
  cross join unnest(t.metadata) as m
  cross join unnest(m.request) as request
  cross join unnest(m.response) as response
where t.timestamp > timestamp_sub(current_timestamp(), interval 1 day)
  and request.path not like '/health%'
  and request.method is not null
group by 1, 2, 3
having count(*) > 10
order by hour desc, requests desc nulls last
limit @limit
