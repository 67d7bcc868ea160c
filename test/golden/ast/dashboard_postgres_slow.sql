/* dashboard: slow postgres statements by user, error severities first */
select
  parsed.user_name as user,
  extract(hour from t.timestamp) as hour_of_day,
  regexp_extract(t.event_message, r'duration: (\d+\.\d+) ms') as duration,
  cast(regexp_extract(t.event_message, r'duration: (\d+)') as int64) * 1000 as duration_us,
  if(parsed.error_severity in unnest(['ERROR', 'FATAL', 'PANIC']), 1, 0) as is_error,
  array_length(split(t.event_message, ' ')) as words,
  strpos(t.event_message, "statement:") > 0 as has_statement,
  concat(parsed.database_name, '/', coalesce(parsed.application_name, '-')) || '!' as app
from `postgres.logs` t
  cross join unnest(t.metadata) as m
  cross join unnest(m.parsed) as parsed
where t.timestamp between timestamp_sub(current_timestamp(), interval 6 hour) and current_timestamp
  and not (parsed.error_severity = 'LOG' or parsed.error_severity is null)
  and -1 < 2 - -3 * (4 + 5) / 6
order by 4 desc
