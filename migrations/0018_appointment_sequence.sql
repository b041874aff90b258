-- A visit's iCalendar SEQUENCE (RFC 5545 §3.8.7.4, issue 32): the version of the event its invitation, its
-- cancellation and the calendar feeds carry, so a calendar keeps the newest of two copies of one UID.
alter table appointments add column sequence integer not null default 0;

-- Before this column every move and every cancellation e-mail said SEQUENCE 1: rows that had one keep agreeing
-- with what was sent (a move is known from its audit row, unless retention has pruned it).
update appointments set sequence = 1
where status = 'cancelled'
   or id::text in (select entity_id from audit_log where action = 'appointment_rescheduled' and entity = 'appointment');

-- The database bumps it, not each use case: every program and path that moves a visit (patient, desk, admin,
-- the waitlist) or cancels it (also the reminder's link) changes it once, in the change's own transaction, and
-- none can forget to or set it by hand. What the patient is not told of (check-in, completion, no-show) leaves it.
create function bump_appointment_sequence() returns trigger language plpgsql as $$
begin
  new.sequence := old.sequence + case
    when (old.date, old.start_time, old.end_time, old.doctor_id, old.room_id, old.department_id)
         is distinct from (new.date, new.start_time, new.end_time, new.doctor_id, new.room_id, new.department_id)
      or (new.status = 'cancelled' and old.status <> 'cancelled') then 1
    else 0 end;
  return new;
end $$;
create trigger appointments_sequence before update on appointments
  for each row execute function bump_appointment_sequence();
