-- The admin's patient search matched name and e-mail on users and the phone on patients, then joined the
-- two sets: over 100,000 patients that join cost more than the search. Each patient now carries its own
-- lower-cased search text, kept by triggers whichever program writes, with one trigram index over it.
create function patient_search_text(name text, email text, phone text) returns text
language sql immutable as $$
  select lower(name) || ' ' || lower(email) || ' ' || lower(coalesce(phone, ''))
$$;

alter table patients add column search_text text;
update patients p set search_text = patient_search_text(u.name, u.email, p.phone) from users u where u.id = p.user_id;
alter table patients alter column search_text set not null;

create function set_patient_search_text() returns trigger language plpgsql as $$
begin
  new.search_text := (select patient_search_text(u.name, u.email, new.phone) from users u where u.id = new.user_id);
  return new;
end $$;
create trigger patients_search_text before insert or update of user_id, phone on patients
  for each row execute function set_patient_search_text();

create function refresh_patient_search_text() returns trigger language plpgsql as $$
begin
  update patients set search_text = patient_search_text(new.name, new.email, phone) where user_id = new.id;
  return null;
end $$;
create trigger users_patient_search_text after update of name, email on users
  for each row when (old.name is distinct from new.name or old.email is distinct from new.email)
  execute function refresh_patient_search_text();

create index patients_search_trgm_idx on patients using gin (search_text public.gin_trgm_ops);
drop index users_search_trgm_idx;
drop index patients_phone_trgm_idx;
