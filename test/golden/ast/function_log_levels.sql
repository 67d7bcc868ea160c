select id, function_logs.timestamp, event_message, metadata.event_type, metadata.function_id, metadata.level
from function_logs cross join unnest(metadata) as metadata
where metadata.function_id = 'abc' and metadata.level in ('error', 'fatal')
order by timestamp desc limit 100
