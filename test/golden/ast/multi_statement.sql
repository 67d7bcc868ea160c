select 1;
DELETE FROM edge_logs WHERE true;
create table x (a int64);
select 2 as two;
