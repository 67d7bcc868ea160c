# dashboard: latest auth errors, with a nested WITH in a subquery and IN (subquery)
select id, timestamp, event_message, metadata.level, metadata.msg as message
from auth_logs cross join unnest(metadata) as metadata
where metadata.level in ('error', 'fatal')
  and id not in (
    with muted as (select id from auth_logs where event_message like '%healthcheck%')
    select id from muted
  )
  and exists (select 1 from unnest(metadata) as m2 where m2.status is not true)
  and not starts_with(lower(event_message), 'ok')
qualify timestamp >= timestamp '2024-01-01 00:00:00'
order by timestamp desc
limit 50 offset 10;
