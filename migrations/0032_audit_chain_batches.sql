-- Sealing writes one link a batch, and finds what to seal by the rows' transactions rather than notes (issue 36).
-- Measured with 0031: a row alone writes 632 B of WAL, its note 110 more, and sealing it 295 more (a link row and two
-- index entries in audit_chain, the note deleted), and the sealer's writes beside the writers' cost audited writes
-- a fifth of their rate at 8 writers. Now a row carries the transaction that wrote it (one index entry, no note to
-- insert and delete), and a batch is one row holding its rows' ids and hashes (40 B a row).

-- Every audited transaction shares nothing with another until it commits: the column's default is its own id.
alter table audit_log add column tx xid8;
alter table audit_log alter column tx set default pg_current_xact_id();
create index audit_log_tx_idx on audit_log (tx, id);

-- The sealer's place: every row at or before (sealed_tx, sealed_id) is sealed, or anonymous and left out.
alter table audit_chain_head add column sealed_tx xid8 not null default '0', add column sealed_id bigint not null default 0;

-- A batch: the rows sealed at first_seq, first_seq + 1, … in order, and their hashes one after the other, each over
-- the previous row's hash and the row, as before.
create table audit_chain_batches (
  first_seq bigint primary key check (first_seq > 0),
  audit_ids bigint[] not null check (cardinality(audit_ids) > 0),
  hashes bytea not null,
  check (octet_length(hashes) = 32 * cardinality(audit_ids))
);

create trigger audit_chain_batches_append_only before update or delete on audit_chain_batches for each row execute function audit_chain_refuse_change();
create trigger audit_chain_batches_no_truncate before truncate on audit_chain_batches for each statement execute function audit_refuse_truncate();

-- The links sealed so far move over unchanged, a thousand a batch, a gap in seq kept as one (so verify still names
-- it); the chain and every signed checkpoint verify across the change.
insert into audit_chain_batches (first_seq, audit_ids, hashes)
select min(seq), array_agg(audit_id order by seq), string_agg(hash, ''::bytea order by seq)
from (select seq, audit_id, hash, seq - row_number() over (order by seq) as run from audit_chain) links
group by run, (seq - 1) / 1000;

-- Rows noted and not yet sealed are sealed first, as written by this transaction: every later row's is greater. (The
-- column's addition above holds audit_log against every writer until this commits.)
alter table audit_log disable trigger audit_log_append_only;
update audit_log a set tx = pg_current_xact_id()
where exists (select 1 from audit_unsealed q where q.id = a.id) and not exists (select 1 from audit_chain c where c.audit_id = a.id);
alter table audit_log enable trigger audit_log_append_only;

drop table audit_chain;
drop table audit_unsealed;

-- The chain link by link, for verify and the checkpoints.
create view audit_chain as
select b.first_seq + u.n - 1 as seq, u.audit_id, substring(b.hashes from (u.n::int - 1) * 32 + 1 for 32) as hash
from audit_chain_batches b, unnest(b.audit_ids) with ordinality as u(audit_id, n);

-- Seals up to max_rows rows and answers how many, or null when another sealer holds the turn (the advisory lock
-- elects one among every instance, so two never extend the head at once).
--
-- Which rows: those after the sealer's place written by a transaction older than the oldest one still running (the
-- xmin of this statement's snapshot). Those are all committed or rolled back, and none can add a row later; a
-- transaction still running has an id at least that xmin, so its rows come after the place whenever it commits. A
-- batch is chained in the order of (transaction, id); an anonymous row moves the place on without a link.
create or replace function audit_seal(max_rows integer) returns integer language plpgsql as $$
declare
  sealed integer;
begin
  if not pg_try_advisory_xact_lock(727021) then
    return null;
  end if;
  with head as (
    select seq, hash, sealed_tx, sealed_id from audit_chain_head
  ), taken as (
    select t.r, row_number() over (order by (t.r).tx, (t.r).id) as n
    from head h, lateral (
      select a as r from audit_log a
      where (a.tx, a.id) > (h.sealed_tx, h.sealed_id) and a.tx < pg_snapshot_xmin(pg_current_snapshot())
      order by a.tx, a.id limit max_rows
    ) t
  ), batch as (
    select t.r, h.seq + row_number() over (order by t.n) as seq
    from taken t, head h
    where not audit_is_anonymous((t.r).action, (t.r).actor_user_id, (t.r).entity_id)
  ), links as (
    select b.seq, (b.r).id, audit_chain_links(h.hash, b.seq, b.r) over (order by b.seq) as hash from batch b, head h
  ), chained as (
    insert into audit_chain_batches (first_seq, audit_ids, hashes)
    select min(seq), array_agg(id order by seq), string_agg(hash, ''::bytea order by seq) from links having count(*) > 0
    returning cardinality(audit_ids) as n, first_seq + cardinality(audit_ids) - 1 as last_seq, substring(hashes from octet_length(hashes) - 31) as last_hash
  ), passed as (
    select (r).tx, (r).id from taken order by n desc limit 1
  ), moved as (
    update audit_chain_head h
    set seq = coalesce((select last_seq from chained), h.seq), hash = coalesce((select last_hash from chained), h.hash),
        sealed_tx = p.tx, sealed_id = p.id
    from passed p returning 1
  )
  select coalesce((select n from chained), 0) into sealed;
  return sealed;
end $$;

-- As the owner, like before (0021): create or replace sets the function's attributes afresh.
do $$
begin
  execute format('alter function audit_seal(integer) security definer set search_path = %I, pg_temp', current_schema());
end $$;
