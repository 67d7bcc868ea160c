select IFNULL(SAFE_CAST(status as INT64), 0) as s from auth_logs
