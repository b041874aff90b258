-- Attempts counted per key before they are checked (login per account and address, per address; sign-ups per
-- address), so that racing attempts count one by one. login_attempts is no longer written; it is dropped once no
-- running release reads it.
create table throttle (
  key text primary key,
  failures integer not null default 0,
  last_failure_at timestamptz
);
create index throttle_last_failure_idx on throttle (last_failure_at);
