-- logs.all: raw log rows of one project (SPEC §4). One CTE per source, each with the columns
-- timestamp, id, event_message, metadata, newest first; the final SELECT reads edge_logs only.
-- Written in the reference's own style (CASE on parameters, casts) to prove such queries run unchanged.
with
edge_logs as (
select
  t.timestamp,
  t.id,
  t.event_message,
  t.metadata
from `edge.logs.prod` as t
where
  -- project first, then the time bounds (exclusive start, inclusive end; empty = no bound)
  t.project = @project
  AND CASE WHEN COALESCE(@iso_timestamp_start, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) > cast(@iso_timestamp_start as timestamp) END
  AND CASE WHEN COALESCE(@iso_timestamp_end, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) <= cast(@iso_timestamp_end as timestamp) END
order by
  cast(t.timestamp as timestamp) desc
),
postgres_logs as (
select
  t.timestamp,
  t.id,
  t.event_message,
  t.metadata
from `postgres.logs` as t
where
  -- project first, then the time bounds (exclusive start, inclusive end; empty = no bound)
  t.project = @project
  AND CASE WHEN COALESCE(@iso_timestamp_start, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) > cast(@iso_timestamp_start as timestamp) END
  AND CASE WHEN COALESCE(@iso_timestamp_end, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) <= cast(@iso_timestamp_end as timestamp) END
order by
  cast(t.timestamp as timestamp) desc
),
function_edge_logs as (
select
  t.timestamp,
  t.id,
  t.event_message,
  t.metadata
from `function-relay-logs` as t
  cross join unnest(t.metadata) as m
where
  -- project first, then the time bounds (exclusive start, inclusive end; empty = no bound)
  m.project_ref = @project
  AND CASE WHEN COALESCE(@iso_timestamp_start, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) > cast(@iso_timestamp_start as timestamp) END
  AND CASE WHEN COALESCE(@iso_timestamp_end, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) <= cast(@iso_timestamp_end as timestamp) END
order by
  cast(t.timestamp as timestamp) desc
),
function_logs as (
select
  t.timestamp,
  t.id,
  t.event_message,
  t.metadata
from `function-runtime-events` as t
  cross join unnest(t.metadata) as m
where
  -- project first, then the time bounds (exclusive start, inclusive end; empty = no bound)
  m.project_ref = @project
  AND CASE WHEN COALESCE(@iso_timestamp_start, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) > cast(@iso_timestamp_start as timestamp) END
  AND CASE WHEN COALESCE(@iso_timestamp_end, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) <= cast(@iso_timestamp_end as timestamp) END
order by
  cast(t.timestamp as timestamp) desc
),
auth_logs as (
select
  t.timestamp,
  t.id,
  t.event_message,
  t.metadata
from `auth.logs.prod` as t
where
  -- project first, then the time bounds (exclusive start, inclusive end; empty = no bound)
  t.project = @project
  AND CASE WHEN COALESCE(@iso_timestamp_start, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) > cast(@iso_timestamp_start as timestamp) END
  AND CASE WHEN COALESCE(@iso_timestamp_end, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) <= cast(@iso_timestamp_end as timestamp) END
order by
  cast(t.timestamp as timestamp) desc
),
realtime_logs as (
select
  t.timestamp,
  t.id,
  t.event_message,
  t.metadata
from `realtime.logs.prod` as t
  cross join unnest(t.metadata) as m
where
  -- project first, then the time bounds (exclusive start, inclusive end; empty = no bound)
  m.project = @project
  AND CASE WHEN COALESCE(@iso_timestamp_start, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) > cast(@iso_timestamp_start as timestamp) END
  AND CASE WHEN COALESCE(@iso_timestamp_end, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) <= cast(@iso_timestamp_end as timestamp) END
order by
  cast(t.timestamp as timestamp) desc
),
storage_logs as (
select
  t.timestamp,
  t.id,
  t.event_message,
  t.metadata
from `storage.logs.prod` as t
  cross join unnest(t.metadata) as m
where
  -- project first, then the time bounds (exclusive start, inclusive end; empty = no bound)
  m.project = @project
  AND CASE WHEN COALESCE(@iso_timestamp_start, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) > cast(@iso_timestamp_start as timestamp) END
  AND CASE WHEN COALESCE(@iso_timestamp_end, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) <= cast(@iso_timestamp_end as timestamp) END
order by
  cast(t.timestamp as timestamp) desc
),
rest_logs as (
select
  t.timestamp,
  t.id,
  t.event_message,
  t.metadata
from `rest.logs.prod` as t
where
  -- project first, then the time bounds (exclusive start, inclusive end; empty = no bound)
  t.project = @project
  AND CASE WHEN COALESCE(@iso_timestamp_start, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) > cast(@iso_timestamp_start as timestamp) END
  AND CASE WHEN COALESCE(@iso_timestamp_end, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) <= cast(@iso_timestamp_end as timestamp) END
order by
  cast(t.timestamp as timestamp) desc
),
pooler_logs as (
select
  t.timestamp,
  t.id,
  t.event_message,
  t.metadata
from `pooler.logs.prod` as t
where
  -- project first, then the time bounds (exclusive start, inclusive end; empty = no bound)
  t.project = @project
  AND CASE WHEN COALESCE(@iso_timestamp_start, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) > cast(@iso_timestamp_start as timestamp) END
  AND CASE WHEN COALESCE(@iso_timestamp_end, '') = '' THEN TRUE ELSE cast(t.timestamp as timestamp) <= cast(@iso_timestamp_end as timestamp) END
order by
  cast(t.timestamp as timestamp) desc
)
select id, timestamp, event_message, metadata
from edge_logs
limit 100
