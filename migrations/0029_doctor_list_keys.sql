-- The doctors' list finds a page's doctors from users_doctor_name_idx alone (issue 36): with the name beside its
-- lower-cased form the index answers the page's order without reading a user's row (an index-only scan). 0027's
-- index could not, so the page was sorted from every doctor's account row, read one by one.
drop index users_doctor_name_idx;
create index users_doctor_name_idx on users (lower(name), id) include (name) where role = 'doctor';
