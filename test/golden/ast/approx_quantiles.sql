select approx_quantiles(response.origin_time, 100)[offset(99)] as p99 from edge_logs cross join unnest(metadata) m cross join unnest(m.response) response
