select id, identifier, timestamp, event_message, request.method, request.path, response.status_code
from edge_logs
cross join unnest(metadata) as m
cross join unnest(m.response) as response
cross join unnest(m.request) as request
where regexp_contains(request.path, "^/rest") and response.status_code >= 400
order by timestamp desc
limit 100
