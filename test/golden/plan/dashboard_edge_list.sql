-- a dashboard list query: unnest chain, implicit names, newest first
with edge_logs as (select t.timestamp, t.id, t.event_message, t.metadata from `edge.logs.prod` t where t.project = 'alpha')
select id, timestamp, event_message, request.method, request.path, response.status_code
from edge_logs
cross join unnest(metadata) as m
cross join unnest(m.response) as response
cross join unnest(m.request) as request
where response.status_code >= 400
order by timestamp desc
limit 100
