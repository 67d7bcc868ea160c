-- usage.api-counts: request counts per API area over time for the projects whose request URLs
-- match @project (an RE2 pattern), per minute / hour / day (SPEC §4). Reference-style SQL.
with
  dates as (
    select
      (case
        when @interval = 'hourly' then timestamp_sub(current_timestamp(), interval 1 hour)
        when @interval = 'daily' then timestamp_sub(current_timestamp(), interval 7 day)
        when @interval = 'minutely' then timestamp_sub(current_timestamp(), interval 60 minute)
      end) as start
  ),
  chart_counts as (
    select
      (case
        when @interval = 'hourly' then timestamp_trunc(f0.timestamp, hour)
        when @interval = 'daily' then timestamp_trunc(f0.timestamp, day)
        when @interval = 'minutely' then timestamp_trunc(f0.timestamp, minute)
      end) as timestamp,
      countIf(REGEXP_CONTAINS(f2.path, '/rest')) as total_rest_requests,
      countIf(REGEXP_CONTAINS(f2.path, '/storage')) as total_storage_requests,
      countIf(REGEXP_CONTAINS(f2.path, '/auth')) as total_auth_requests,
      countIf(REGEXP_CONTAINS(f2.path, '/realtime')) as total_realtime_requests,
    from
      dates,
      `edge.logs.prod` as f0
      LEFT JOIN UNNEST(metadata) AS f1 ON TRUE
      LEFT JOIN UNNEST(f1.request) AS f2 ON TRUE
    where
      REGEXP_CONTAINS(f2.url, @project)
      -- only rows inside the window
      and f0.timestamp >= dates.start
    group by
      timestamp
  )
select
  datetime(chart_counts.timestamp, 'UTC') as timestamp,
  COALESCE(SUM(chart_counts.total_rest_requests), 0) as total_rest_requests,
  COALESCE(SUM(chart_counts.total_storage_requests), 0) as total_storage_requests,
  COALESCE(SUM(chart_counts.total_auth_requests), 0) as total_auth_requests,
  COALESCE(SUM(chart_counts.total_realtime_requests), 0) as total_realtime_requests,
from
  chart_counts
group by
  timestamp
order by
  timestamp asc;
