-- Behind a transaction pooler without a direct connection to the server (DATABASE_POOLER=transaction and no
-- DATABASE_DIRECT_URL) a server cannot LISTEN: it reads the notices it would have heard from this log instead, about
-- once a second (src/db/pg-notice-poll.ts). Each notice the auth triggers send is also written here, with the
-- transaction's id: a reader that has seen every transaction older than its last snapshot's oldest running one
-- reads from there, so a notice of a transaction that commits late is read too. Rows older than an hour go as new
-- ones come; a reader away that long has forgotten everything it remembered.
create table notice_log (
  id bigint generated always as identity primary key,
  channel text not null,
  payload text not null,
  xid xid8 not null default pg_current_xact_id(),
  logged_at timestamptz not null default now()
);
create index notice_log_xid on notice_log (xid);
create index notice_log_logged_at on notice_log (logged_at);

create or replace function notify_auth_changed() returns trigger language plpgsql as $$
declare
  changed text[] := array[]::text[];
  who text;
begin
  if tg_op = 'TRUNCATE' then
    changed := array['*'];
  else
    if tg_op <> 'INSERT' then
      changed := changed || (to_jsonb(old) ->> tg_argv[0]);
    end if;
    if tg_op <> 'DELETE' and (to_jsonb(new) ->> tg_argv[0]) is distinct from changed[1] then
      changed := changed || (to_jsonb(new) ->> tg_argv[0]);
    end if;
  end if;
  foreach who in array changed loop
    continue when who is null;
    perform pg_notify('medora_auth', who);
    -- Once a transaction, as PostgreSQL sends a repeated notice once.
    insert into notice_log (channel, payload)
      select 'medora_auth', who
      where not exists (
        select from notice_log where xid = pg_current_xact_id() and channel = 'medora_auth' and payload = who
      );
  end loop;
  -- Skips rows another transaction is deleting, so sign-outs never wait on each other here.
  delete from notice_log where id in (
    select id from notice_log where logged_at < now() - interval '1 hour' limit 100 for update skip locked
  );
  return null;
end $$;
