with x as (select generate_timestamp_array(timestamp_sub(current_timestamp(), interval 1 day), current_timestamp(), interval 1 hour) as ts)
select t from x, unnest(x.ts) as t with offset as i where i < 3 and x[0] is not null /* struct subscript */
