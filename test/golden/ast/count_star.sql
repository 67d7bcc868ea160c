SELECT COUNT(*) AS count FROM edge_logs
