-- FHIR reads a stay as an Encounter and a bed as a Location (issue 33): like every table a resource is read from
-- (0019), admissions and beds get an updated_at and a row_version that the database keeps.
alter table admissions add column updated_at timestamptz;
alter table beds add column updated_at timestamptz;
update admissions set updated_at = greatest(requested_at, reserved_at, admitted_at, discharge_ordered_at, discharged_at, cancelled_at);
update beds set updated_at = greatest(created_at, housekeeping_since, retired_at);
alter table admissions alter column updated_at set default now(), alter column updated_at set not null;
alter table beds alter column updated_at set default now(), alter column updated_at set not null;
alter table admissions add column row_version integer not null default 1;
alter table beds add column row_version integer not null default 1;
create trigger admissions_touch before update on admissions for each row execute function touch_row();
create trigger beds_touch before update on beds for each row execute function touch_row();

-- An Encounter is a visit (numeric id) or a stay (stay-<id>): reading one by its text id, and paging by it, uses these.
create index appointments_fhir_id_idx on appointments ((id::text));
create index admissions_fhir_id_idx on admissions (('stay-' || id::text));
-- A stay's beds, read for its Encounter and for the beds of a patient's $everything.
create index bed_stays_admission_idx on bed_stays (admission_id, started_at);
