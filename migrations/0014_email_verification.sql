-- A sign-in e-mail that staff enter for a patient (issue 29) waits in `pending_email` until the patient confirms it
-- from that address: with their password when they already sign in with another, by the link alone when they
-- have none (a walk-in). Until then `email` — the address every sign-in, reset link and message uses — stays as
-- it was, so a receptionist who types someone else's address takes nothing over. The confirmation link is an
-- `action_tokens` row of kind verify_email (a digest, single use, expiring) whose `email` is the pending address.
alter table users add column pending_email text check (length(pending_email) between 3 and 254);
alter table users add constraint users_pending_email_patient check (pending_email is null or role = 'patient');
-- One account may wait for an address at a time; whoever confirms it first against users_email_key wins.
create unique index users_pending_email_key on users (lower(pending_email));

-- Addresses staff typed before this release and nobody confirmed are the hole this closes, so they become pending
-- too. Who typed the current address comes from the audit trail: the latest `register` or `email_changed` of the
-- patient. A desk change gets back the address it replaced (its `from`), if nobody has taken that since; a
-- walk-in's first address leaves them without one, as before it was given. An e-mailed reset link used since
-- proves whoever holds the address already chose the password: such accounts are left as they are.
with last_set as (
  select distinct on (u.id) u.id as user_id, u.email, a.actor_role, a.at, a.details ->> 'from' as previous
  from users u
  join patients p on p.user_id = u.id
  join audit_log a on a.patient_id = p.id and a.action in ('register', 'email_changed')
  where u.email is not null and u.email_verified_at is null
  order by u.id, a.at desc, a.id desc
), staff_typed as (
  select s.user_id, s.email, s.previous
  from last_set s
  where s.actor_role is distinct from 'patient'
    and not exists (select 1 from password_resets r where r.user_id = s.user_id and r.created_by is null and r.used_at > s.at)
), restored as (
  select t.user_id, t.email,
    case when count(*) over (partition by lower(t.previous)) = 1
          and not exists (select 1 from users o where lower(o.email) = lower(t.previous)) then t.previous end as previous
  from staff_typed t
)
update users u set pending_email = r.email, email = r.previous, updated_at = now()
from restored r where u.id = r.user_id;

-- A patient left without a sign-in address has no session either.
update sessions set revoked_at = now()
where revoked_at is null and user_id in (select id from users where email is null and pending_email is not null);
