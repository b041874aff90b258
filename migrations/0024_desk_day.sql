-- The desk takes back a check-in or a no-show made by mistake on the visit's day (issue 35): checked_in and
-- no_show may return to scheduled. Otherwise the rules of 0011, which this replaces, are unchanged.
create or replace function check_appointment_transition() returns trigger language plpgsql as $$
begin
  if old.status is distinct from new.status and not (old.status, new.status) in (
      ('scheduled', 'checked_in'), ('scheduled', 'completed'), ('checked_in', 'completed'),
      ('scheduled', 'no_show'), ('scheduled', 'cancelled'), ('checked_in', 'cancelled'),
      ('checked_in', 'scheduled'), ('no_show', 'scheduled')) then
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

-- The desk's check for a walk-in registered twice: the same phone (its digits), or the same birthdate and name.
create index patients_phone_digits_idx on patients (regexp_replace(phone, '\D', '', 'g')) where phone <> '';
create index patients_birthdate_idx on patients (birthdate) where birthdate is not null;
