-- The front desk (issue 21): a reception role, patients registered at the desk without an e-mail, and a visit's
-- lifecycle scheduled → checked_in → completed, scheduled → no_show, scheduled | checked_in → cancelled.

alter table users drop constraint users_role_check;
alter table users add constraint users_role_check check (role in ('patient', 'doctor', 'admin', 'reception'));

-- A walk-in patient may have no e-mail, and so no sign-in: every sign-in and reset looks a user up by
-- lower(email) = lower($1), which a null never equals. users_email_key stays unique over the addresses there
-- are, since a unique index treats nulls as distinct. Staff always sign in, so only patients may lack one.
alter table users alter column email drop not null;
alter table users add constraint users_email_required check (email is not null or role = 'patient');

create or replace function patient_search_text(name text, email text, phone text) returns text
language sql immutable as $$
  select lower(name) || ' ' || lower(coalesce(email, '')) || ' ' || lower(coalesce(phone, ''))
$$;

alter table appointments drop constraint appointments_status_check;
alter table appointments add constraint appointments_status_check
  check (status in ('scheduled', 'checked_in', 'completed', 'no_show', 'cancelled'));
alter table appointments add column checked_in_at timestamptz;

-- The same rules as the domain's `transition` (src/domain/scheduling/lifecycle.ts), for every program that
-- writes. A doctor may record a visit nobody checked in, so scheduled → completed is allowed. A no_show keeps
-- its slot (appointments_slot_key excludes only cancelled rows), and only a scheduled visit moves to another slot.
create function check_appointment_transition() returns trigger language plpgsql as $$
begin
  if old.status is distinct from new.status and not (old.status, new.status) in (
      ('scheduled', 'checked_in'), ('scheduled', 'completed'), ('checked_in', 'completed'),
      ('scheduled', 'no_show'), ('scheduled', 'cancelled'), ('checked_in', 'cancelled')) then
    raise exception 'an appointment cannot go from % to %', old.status, new.status
      using errcode = 'check_violation', constraint = 'appointments_status_transition';
  end if;
  if (old.doctor_id, old.date, old.start_time) is distinct from (new.doctor_id, new.date, new.start_time)
     and (old.status <> 'scheduled' or new.status <> 'scheduled') then
    raise exception 'only a scheduled appointment moves to another slot'
      using errcode = 'check_violation', constraint = 'appointments_status_transition';
  end if;
  return new;
end $$;
create trigger appointments_status_transition before update on appointments
  for each row execute function check_appointment_transition();

-- Reception's count of a patient's no-shows.
create index appointments_patient_no_show_idx on appointments (patient_id) where status = 'no_show';
