(select id from edge_logs order by timestamp desc limit 1)
union all
(select id from postgres_logs limit 1)
union distinct
select id from auth_logs
intersect distinct
select id from rest_logs
except distinct
select id from pooler_logs
