-- FHIR's meta.lastUpdated and meta.versionId come from the rows themselves (issue 33): every table a FHIR resource
-- is read from gets an updated_at and a row_version that the database keeps, so no program or path that writes can
-- forget them. An update that sets updated_at itself (the use cases pass their clock) keeps that value.
alter table patients add column updated_at timestamptz;
alter table doctors add column updated_at timestamptz;
alter table departments add column updated_at timestamptz;
alter table specializations add column updated_at timestamptz;
alter table diseases add column updated_at timestamptz;
alter table rooms add column updated_at timestamptz;
alter table schedules add column updated_at timestamptz;
alter table medical_records add column updated_at timestamptz;
alter table billings add column updated_at timestamptz;

update patients set updated_at = created_at;
update doctors set updated_at = created_at;
update departments set updated_at = created_at;
update specializations set updated_at = created_at;
update diseases set updated_at = created_at;
update rooms set updated_at = created_at;
update schedules set updated_at = coalesce(retired_at, now());
update medical_records set updated_at = created_at;
update billings b set updated_at = coalesce((select max(p.paid_at) from payments p where p.billing_id = b.id), b.created_at);

alter table patients alter column updated_at set default now(), alter column updated_at set not null;
alter table doctors alter column updated_at set default now(), alter column updated_at set not null;
alter table departments alter column updated_at set default now(), alter column updated_at set not null;
alter table specializations alter column updated_at set default now(), alter column updated_at set not null;
alter table diseases alter column updated_at set default now(), alter column updated_at set not null;
alter table rooms alter column updated_at set default now(), alter column updated_at set not null;
alter table schedules alter column updated_at set default now(), alter column updated_at set not null;
alter table medical_records alter column updated_at set default now(), alter column updated_at set not null;
alter table billings alter column updated_at set default now(), alter column updated_at set not null;

alter table users add column row_version integer not null default 1;
alter table patients add column row_version integer not null default 1;
alter table doctors add column row_version integer not null default 1;
alter table departments add column row_version integer not null default 1;
alter table specializations add column row_version integer not null default 1;
alter table diseases add column row_version integer not null default 1;
alter table rooms add column row_version integer not null default 1;
alter table schedules add column row_version integer not null default 1;
alter table appointments add column row_version integer not null default 1;
alter table medical_records add column row_version integer not null default 1;
alter table billings add column row_version integer not null default 1;

create function touch_row() returns trigger language plpgsql as $$
begin
  new.row_version := old.row_version + 1;
  if new.updated_at is not distinct from old.updated_at then
    new.updated_at := now();
  end if;
  return new;
end $$;

create trigger users_touch before update on users for each row execute function touch_row();
create trigger patients_touch before update on patients for each row execute function touch_row();
create trigger doctors_touch before update on doctors for each row execute function touch_row();
create trigger departments_touch before update on departments for each row execute function touch_row();
create trigger specializations_touch before update on specializations for each row execute function touch_row();
create trigger diseases_touch before update on diseases for each row execute function touch_row();
create trigger rooms_touch before update on rooms for each row execute function touch_row();
create trigger schedules_touch before update on schedules for each row execute function touch_row();
create trigger appointments_touch before update on appointments for each row execute function touch_row();
create trigger medical_records_touch before update on medical_records for each row execute function touch_row();
create trigger billings_touch before update on billings for each row execute function touch_row();

-- FHIR searches sort and page by _lastUpdated over the tables that grow with the hospital.
create index patients_updated_idx on patients (updated_at, id);
create index appointments_updated_idx on appointments (updated_at, id);
create index medical_records_updated_idx on medical_records (updated_at, id);
create index billings_updated_idx on billings (updated_at, id);
