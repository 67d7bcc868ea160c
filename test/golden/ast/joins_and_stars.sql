select distinct t.*, * except (metadata, event_message), s.*
from `my-project.dataset`.table_a as t
  join table_b as s on t.id = s.id
  inner join table_c c using (id, timestamp)
  left outer join table_d d on d.id = t.id and d.kind <> 'x'
  full outer join table_e e on true
  right join table_f on false
  , t.metadata as md
  , unnest([1, 2, 3]) with offset
