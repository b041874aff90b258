-- The doctors' list in its order (by name) straight from an index (issue 36): its first page was sorted from every
-- doctor of the hospital, which grows with it; now the page walks the index and stops after a page of doctors.
create index users_doctor_name_idx on users (lower(name), id) where role = 'doctor';
