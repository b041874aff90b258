-- A broad patient search ("smit" matches ~2 % of patients) finds its page by walking patients in id order
-- until it has enough matches. This index carries search_text beside the id, so that walk reads the index
-- alone (an index-only scan) instead of a table row for every patient it passes: ~35 % more searches a second.
create index patients_id_search_idx on patients (id) include (search_text);
