-- an equi-join of two sources on id hashes the right side
select a.id from `edge.logs.prod` a join `postgres.logs` b on a.id = b.id
