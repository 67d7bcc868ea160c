select * from (select 1 as a union all select 2) where a > 1
