-- The top doctor straight from an index (issue 36): the first doctor_stats row in the dashboard's order whose doctor
-- is active, instead of every doctor's figures joined and sorted to keep one.
create index doctor_stats_top_idx on doctor_stats (completed desc, patients desc, doctor_id);
