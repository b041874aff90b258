-- The audit trail becomes tamper-evident: each row carries `seq`, its place in one chain, and `hash`, a SHA-256
-- over the previous row's hash and a canonical encoding of the row. A row's contents never change; the only rows
-- ever deleted are anonymous sign-in failures past their retention, which is why they stay outside the chain.

alter table audit_log add column seq bigint, add column hash bytea;
create unique index audit_log_seq_idx on audit_log (seq);

-- Failed sign-ins that name no account: a stranger's traffic, kept only for a while.
create function audit_is_anonymous(action text, actor_user_id integer, entity_id text) returns boolean
language sql immutable as $$
  select action = 'login_failed' and actor_user_id is null and entity_id is null
$$;

-- The chain's one canonical encoding: a JSON array of every column in a fixed order, the time in UTC to the
-- microsecond (jsonb's text form sorts object keys, so `details` reads back the same however it was written).
create function audit_row_hash(prev bytea, seq bigint, r audit_log) returns bytea
language sql stable as $$
  select sha256(prev || convert_to(jsonb_build_array(
    seq, r.id, to_char(r.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), r.actor_user_id, r.actor_role,
    r.action, r.entity, r.entity_id, r.patient_id, r.request_id, r.details
  )::text, 'UTF8'))
$$;

-- The chain's last link. Updating this one row is the lock that orders concurrent commits, from any number of
-- server instances, into one chain: a second committer waits until the first has committed, then reads its hash.
create table audit_chain_head (
  one_row boolean primary key default true check (one_row),
  seq bigint not null,
  hash bytea not null
);

-- Existing rows join the chain in the order they were written, one at a time as each link needs the one before.
do $$
declare
  prev bytea := '\x0000000000000000000000000000000000000000000000000000000000000000';
  n bigint := 0;
  r audit_log;
begin
  for r in select * from audit_log where not audit_is_anonymous(action, actor_user_id, entity_id) order by at, id loop
    n := n + 1;
    prev := audit_row_hash(prev, n, r);
    update audit_log set seq = n, hash = prev where id = r.id;
  end loop;
  insert into audit_chain_head (seq, hash) values (n, prev);
end $$;

-- A row joins the chain when its transaction commits, not when it is inserted: the head row stays locked from
-- then until the commit, so a transaction that audits early and works on (an import of many doctors) does not
-- hold every other audited request back meanwhile. Within a transaction, rows join in the order written.
create function audit_log_unchained() returns trigger language plpgsql as $$
begin
  new.seq := null;
  new.hash := null;
  return new;
end $$;

create trigger audit_log_unchained before insert on audit_log for each row execute function audit_log_unchained();

create function audit_log_chain() returns trigger language plpgsql as $$
declare
  link audit_chain_head;
begin
  if not audit_is_anonymous(new.action, new.actor_user_id, new.entity_id) then
    update audit_chain_head h set seq = h.seq + 1, hash = audit_row_hash(h.hash, h.seq + 1, new) returning h.* into link;
    update audit_log set seq = link.seq, hash = link.hash where id = new.id;
  end if;
  return null;
end $$;

create constraint trigger audit_log_chain after insert on audit_log deferrable initially deferred
  for each row execute function audit_log_chain();

-- Retention (`medora audit prune`, and daily in `medora serve`) chooses how old; the database allows it no more.
-- The one update allowed is the chain's own: a row's seq and hash set once, its contents unchanged.
create function audit_log_refuse_change() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' and old.seq is null and audit_is_anonymous(old.action, old.actor_user_id, old.entity_id) then
    return old;
  end if;
  if tg_op = 'UPDATE' and old.seq is null and old.hash is null and new.seq is not null and new.hash is not null
     and not audit_is_anonymous(old.action, old.actor_user_id, old.entity_id)
     and (new.id, new.at, new.actor_user_id, new.actor_role, new.action, new.entity, new.entity_id, new.patient_id, new.request_id, new.details)
         is not distinct from
         (old.id, old.at, old.actor_user_id, old.actor_role, old.action, old.entity, old.entity_id, old.patient_id, old.request_id, old.details) then
    return new;
  end if;
  raise exception 'audit_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
end $$;

create trigger audit_log_append_only before update or delete on audit_log for each row execute function audit_log_refuse_change();

create function audit_refuse_truncate() returns trigger language plpgsql as $$
begin
  raise exception '% is append-only: TRUNCATE refused', tg_table_name using errcode = 'insufficient_privilege';
end $$;

create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_refuse_truncate();
create trigger audit_chain_head_no_truncate before truncate on audit_chain_head for each statement execute function audit_refuse_truncate();

-- The admin screen's filters (the patient's index exists already), and retention's scan.
create index audit_log_actor_idx on audit_log (actor_user_id, at desc, id desc) where actor_user_id is not null;
create index audit_log_action_idx on audit_log (action, at desc, id desc);
create index audit_log_anonymous_idx on audit_log (at) where seq is null;
