-- Each server remembers which user is behind a session token (src/db/session-cache.ts). These triggers tell
-- every server, through NOTIFY on channel medora_auth with the user's id as payload, when what it remembers may
-- have changed: a session revoked or deleted, a user changed or deleted (deactivated, renamed, new role), a
-- patient or doctor row added to or taken from a user. They fire whichever program writes: a server, the CLI
-- or psql. A truncate sends '*': forget everyone. PostgreSQL sends the notices when the transaction commits,
-- and drops repeats within it.
create function notify_auth_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'TRUNCATE' then
    perform pg_notify('medora_auth', '*');
    return null;
  end if;
  if tg_op <> 'INSERT' then
    perform pg_notify('medora_auth', to_jsonb(old) ->> tg_argv[0]);
  end if;
  if tg_op <> 'DELETE' then
    perform pg_notify('medora_auth', to_jsonb(new) ->> tg_argv[0]);
  end if;
  return null;
end $$;

create trigger sessions_auth_changed after update or delete on sessions
  for each row execute function notify_auth_changed('user_id');
create trigger users_auth_changed after update or delete on users
  for each row execute function notify_auth_changed('id');
create trigger patients_auth_changed after insert or delete or update of user_id on patients
  for each row execute function notify_auth_changed('user_id');
create trigger doctors_auth_changed after insert or delete or update of user_id on doctors
  for each row execute function notify_auth_changed('user_id');
create trigger sessions_truncated after truncate on sessions for each statement execute function notify_auth_changed();
create trigger users_truncated after truncate on users for each statement execute function notify_auth_changed();
