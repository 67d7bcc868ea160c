-- logs.all in the long CTE form: one CTE per source, parameters for the project and time bounds.
with edge_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata from `edge.logs.prod` as t
  where t.project = @project and (@iso_timestamp_start is null or t.timestamp > timestamp(@iso_timestamp_start))
    and (@iso_timestamp_end is null or t.timestamp <= timestamp(@iso_timestamp_end))
  order by timestamp desc
),
postgres_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata from `postgres.logs` as t
  where t.project = @project and (@iso_timestamp_start is null or t.timestamp > timestamp(@iso_timestamp_start))
),
function_edge_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata from `function-relay-logs` as t
  cross join unnest(t.metadata) as m
  where m.project_ref = @project and (@iso_timestamp_start is null or t.timestamp > timestamp(@iso_timestamp_start))
),
function_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata from `function-runtime-events` as t
  cross join unnest(t.metadata) as m
  where m.project_ref = @project and (@iso_timestamp_start is null or t.timestamp > timestamp(@iso_timestamp_start))
),
auth_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata from `auth.logs.prod` as t
  where t.project = @project and (@iso_timestamp_start is null or t.timestamp > timestamp(@iso_timestamp_start))
),
realtime_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata from `realtime.logs.prod` as t
  cross join unnest(t.metadata) as m
  where m.project = @project and (@iso_timestamp_start is null or t.timestamp > timestamp(@iso_timestamp_start))
),
storage_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata from `storage.logs.prod` as t
  cross join unnest(t.metadata) as m
  where m.project = @project and (@iso_timestamp_start is null or t.timestamp > timestamp(@iso_timestamp_start))
),
rest_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata from `rest.logs.prod` as t
  where t.project = @project and (@iso_timestamp_start is null or t.timestamp > timestamp(@iso_timestamp_start))
),
pooler_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata from `pooler.logs.prod` as t
  where t.project = @project and (@iso_timestamp_start is null or t.timestamp > timestamp(@iso_timestamp_start))
)
select id, timestamp, event_message, metadata from edge_logs
limit 100
