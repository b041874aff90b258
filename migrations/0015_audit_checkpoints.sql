-- Whoever owns the audit tables can disable their triggers, delete the newest rows and step the head back, and the
-- chain still verifies. Two defences (README, "The audit trail"):
--  * signed checkpoints: "the row with seq S has hash H" as of a time, signed with a key kept outside the database,
--    stored here and printed in the server's log. They rely on nothing else about how rows join the chain.
--  * an application role that does not own the tables: the chain's trigger and retention run as the owner, so that
--    role needs only INSERT and SELECT on the trail (`medora db grant-app-role`).

create table audit_checkpoints (
  id bigint generated always as identity primary key,
  seq bigint not null check (seq > 0),
  hash bytea not null check (octet_length(hash) = 32),
  at timestamptz not null,
  key_id text not null check (key_id ~ '^[0-9a-f]{16}$'),
  signature bytea not null check (octet_length(signature) = 64)
);

create function audit_checkpoints_refuse_change() returns trigger language plpgsql as $$
begin
  raise exception 'audit_checkpoints is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
end $$;

create trigger audit_checkpoints_append_only before update or delete on audit_checkpoints
  for each row execute function audit_checkpoints_refuse_change();
create trigger audit_checkpoints_no_truncate before truncate on audit_checkpoints
  for each statement execute function audit_refuse_truncate();

-- Retention as a function of the owner's, so the application role needs no DELETE on audit_log; the append-only
-- trigger still decides which rows may go.
create function audit_prune_anonymous(older_than timestamptz) returns integer language sql as $$
  with pruned as (
    delete from audit_log where seq is null and audit_is_anonymous(action, actor_user_id, entity_id) and at < older_than
    returning 1
  ) select count(*)::int from pruned
$$;

-- Both run as their owner. The search path is pinned to this schema with pg_temp last: otherwise a caller's
-- temporary table named audit_chain_head would be found first and take the chain's update.
do $$
begin
  execute format('alter function audit_log_chain() security definer set search_path = %I, pg_temp', current_schema());
  execute format('alter function audit_prune_anonymous(timestamptz) security definer set search_path = %I, pg_temp', current_schema());
end $$;

-- A trigger fires whatever its function's EXECUTE grants; revoking them keeps another role from attaching the
-- owner's chain function to a table of its own. Pruning is granted to the application role by name.
revoke execute on function audit_log_chain() from public;
revoke execute on function audit_prune_anonymous(timestamptz) from public;
