-- project lives in metadata.project: the filter through the unnest alias reaches the scan
select t.id, t.timestamp from `realtime.logs.prod` as t
cross join unnest(t.metadata) as m
where m.project = 'alpha' and t.timestamp >= '2025-01-15T10:00:00Z'
order by t.timestamp desc
limit 5
