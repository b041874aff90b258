-- Rows join the chain in batches instead of at each commit (issue 36). Chaining at commit held the head row locked
-- through every audited commit's flush, so audited transactions from every instance committed one at a time. Now an
-- audited transaction inserts its row and a note that it waits to be sealed, and touches no shared row; one sealer
-- at a time (medora serve and medora worker, every ~100 ms) seals every committed waiting row in one statement,
-- continuing the chain from its head.
--
-- The chain moves to a table of its own: sealing inserts one narrow row per audit row, where setting audit_log's
-- seq and hash rewrote the whole row and every index on it, which cost more than the audited insert itself. The
-- links sealed so far are copied as they are (the same seq and hash), so the chain and the signed checkpoints of it
-- verify across the change; audit_log's own seq and hash stay as they were and are read no more.

drop trigger audit_log_chain on audit_log;
drop function audit_log_chain();

-- The chain: the row sealed at each place, and its hash over the previous link's hash and the row.
create table audit_chain (
  seq bigint primary key check (seq > 0),
  audit_id bigint not null unique,
  hash bytea not null check (octet_length(hash) = 32)
);
insert into audit_chain (seq, audit_id, hash) select seq, id, hash from audit_log where seq is not null;

-- The rows waiting to be sealed. A row's note is written in its own transaction: the sealer sees it once that has
-- committed, and none is written for the anonymous failures, which stay outside the chain.
create table audit_unsealed (id bigint primary key);

create or replace function audit_log_unchained() returns trigger language plpgsql as $$
begin
  new.seq := null;
  new.hash := null;
  if not audit_is_anonymous(new.action, new.actor_user_id, new.entity_id) then
    insert into audit_unsealed (id) values (new.id);
  end if;
  return new;
end $$;

-- Nothing updates audit_log any more, not even the chain; retention's deletes are as before.
create or replace function audit_log_refuse_change() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' and old.seq is null and audit_is_anonymous(old.action, old.actor_user_id, old.entity_id) then
    return old;
  end if;
  raise exception 'audit_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
end $$;

create function audit_chain_refuse_change() returns trigger language plpgsql as $$
begin
  raise exception 'audit_chain is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
end $$;

create trigger audit_chain_append_only before update or delete on audit_chain for each row execute function audit_chain_refuse_change();
create trigger audit_chain_no_truncate before truncate on audit_chain for each statement execute function audit_refuse_truncate();

-- audit_log's seq is null on every new row: its index would only grow, and retention's would take in every row.
drop index audit_log_seq_idx;
create index audit_log_anonymous_at_idx on audit_log (at) where audit_is_anonymous(action, actor_user_id, entity_id);
drop index audit_log_anonymous_idx;

create or replace function audit_prune_anonymous(older_than timestamptz) returns integer language sql as $$
  with pruned as (
    delete from audit_log where audit_is_anonymous(action, actor_user_id, entity_id) and at < older_than and seq is null
    returning 1
  ) select count(*)::int from pruned
$$;

-- Each row's link from the one before it, as a running aggregate: over a batch in seq order it yields every row's
-- hash in one pass, the first linked to the head's.
create function audit_chain_step(state bytea, head bytea, seq bigint, r audit_log) returns bytea
language sql stable as $$
  select audit_row_hash(coalesce(state, head), seq, r)
$$;

create aggregate audit_chain_links(bytea, bigint, audit_log) (sfunc = audit_chain_step, stype = bytea);

-- Seals up to max_rows waiting rows and answers how many, or null when another sealer holds the turn (the advisory
-- lock elects one among every instance, so two never extend the head at once).
--
-- Which rows: those noted by a transaction older than the oldest one still running (the xmin of this statement's
-- snapshot). They are all committed or rolled back, and no transaction that old can commit a row later; a row of a
-- transaction that began earlier but commits later waits for a later batch, so no batch ever has to slip a row in
-- before one already sealed. age() compares the 32-bit xids modulo wraparound, relative to one base: a note waits
-- moments, so it is never far from it. A batch is chained in the order of the rows' ids. A note naming no row, or one
-- sealed already, is dropped without a link.
create function audit_seal(max_rows integer) returns integer language plpgsql as $$
declare
  sealed integer;
begin
  if not pg_try_advisory_xact_lock(727021) then
    return null;
  end if;
  with waiting as (
    select q.id from audit_unsealed q
    where age(q.xmin) > age(xid(pg_snapshot_xmin(pg_current_snapshot())))
    order by q.id limit max_rows
  ), head as (
    select seq, hash from audit_chain_head
  ), batch as (
    select a as r, h.seq + row_number() over (order by a.id) as seq
    from waiting w join audit_log a on a.id = w.id, head h
    where not audit_is_anonymous(a.action, a.actor_user_id, a.entity_id)
      and not exists (select 1 from audit_chain c where c.audit_id = a.id)
  ), links as (
    select (b.r).id, b.seq, audit_chain_links(h.hash, b.seq, b.r) over (order by b.seq) as hash from batch b, head h
  ), chained as (
    insert into audit_chain (seq, audit_id, hash) select seq, id, hash from links returning seq, hash
  ), moved as (
    update audit_chain_head h set seq = last.seq, hash = last.hash
    from (select seq, hash from chained order by seq desc limit 1) last returning h.seq
  ), done as (
    delete from audit_unsealed q where q.id in (select id from waiting)
  )
  select count(*)::int into sealed from chained;
  return sealed;
end $$;

-- As the owner, like retention (0015): the application role seals through it, and may not write the chain itself.
do $$
begin
  execute format('alter function audit_seal(integer) security definer set search_path = %I, pg_temp', current_schema());
  execute format('alter function audit_prune_anonymous(timestamptz) security definer set search_path = %I, pg_temp', current_schema());
end $$;

revoke execute on function audit_seal(integer) from public;
