import type { AuditFilter, AuditLog, AuditReader, AuditRow, AuditTrail, ChainCheck } from '../domain/audit/audit.ts';
import type { Role } from '../domain/shared/actor.ts';
import type { Queryable } from './db.ts';
import { pageWithTotal } from './list-page.ts';
import { onlyRow, valuesOf } from './rows.ts';

/** The row is inserted unsealed; the sealer chains it once its transaction has committed (migrations 0021, 0032). */
export function auditLog(db: Queryable): AuditLog {
  return {
    record: async (...entries) => {
      const rows = entries.map((e) => [
        e.actor?.userId || null,
        e.actor?.role ?? null,
        e.action,
        e.entity,
        e.entityId == null ? null : String(e.entityId),
        e.patientId ?? null,
        e.requestId ?? e.actor?.requestId ?? null,
        e.details ? JSON.stringify(e.details) : null,
      ]);
      if (rows.length === 0) return;
      // The row's transaction is its column's default: the sealer seals it once that has ended (migration 0032).
      await db.query(
        `insert into audit_log (actor_user_id, actor_role, action, entity, entity_id, patient_id, request_id, details)
         values ${valuesOf(rows)}`,
        rows.flat(),
      );
    },
  };
}

/** A row of the audit list: the entry and its actor's current name (null once the account is gone). */
interface AuditLogRow {
  id: number;
  at: Date;
  actor_user_id: number | null;
  actor_name: string | null;
  actor_role: Role | null;
  action: string;
  entity: string;
  entity_id: string | null;
  patient_id: number | null;
  request_id: string | null;
  details: Record<string, unknown> | null;
}

export function toAuditRow(row: AuditLogRow): AuditRow {
  return {
    id: row.id,
    at: row.at,
    actor: row.actor_user_id == null ? null : { id: row.actor_user_id, name: row.actor_name, role: row.actor_role },
    action: row.action,
    entity: row.entity,
    entityId: row.entity_id,
    patientId: row.patient_id,
    requestId: row.request_id,
    details: row.details,
  };
}

const COLUMNS = `a.id, a.at, a.actor_user_id, u.name as actor_name, a.actor_role, a.action, a.entity, a.entity_id,
                 a.patient_id, a.request_id, a.details`;

/** `where …` over `a` for `filter`, its values appended to `params`. */
function whereOf(filter: AuditFilter, params: unknown[]): string {
  const param = (value: unknown) => `$${params.push(value)}`;
  const conditions = [
    filter.userId !== undefined && `a.actor_user_id = ${param(filter.userId)}`,
    filter.patientId !== undefined && `a.patient_id = ${param(filter.patientId)}`,
    filter.action !== undefined && `a.action = ${param(filter.action)}`,
    filter.since !== undefined && `a.at >= ${param(filter.since)}`,
    filter.until !== undefined && `a.at < ${param(filter.until)}`,
  ].filter(Boolean);
  return conditions.length > 0 ? `where ${conditions.join(' and ')}` : '';
}

export function auditReader(db: Queryable): AuditReader {
  return {
    list: async (filter, page) => {
      const params: unknown[] = [];
      const where = whereOf(filter, params);
      return pageWithTotal(
        db,
        page,
        {
          columns: COLUMNS,
          rowsOf: `from audit_log a left join users u on u.id = a.actor_user_id ${where}`,
          countOf: `from audit_log a ${where}`,
          orderBy: 'a.at desc, a.id desc',
          params,
        },
        toAuditRow,
      );
    },
    rows: async (filter, limit) => {
      const params: unknown[] = [];
      const where = whereOf(filter, params);
      const rows = await db.query<AuditLogRow>(
        `select ${COLUMNS} from audit_log a left join users u on u.id = a.actor_user_id ${where}
         order by a.at desc, a.id desc limit $${params.push(limit)}`,
        params,
      );
      return rows.map(toAuditRow);
    },
  };
}

// The hash the first row of the chain links to.
const GENESIS = Buffer.alloc(32);

/** The chain's integrity check, its sealing and the retention of anonymous rows, all in SQL over the whole table. */
export function auditTrail(db: Queryable): AuditTrail {
  return {
    verify: async () => {
      const { rows } = onlyRow(await db.query<{ rows: number }>('select count(*)::int as rows from audit_chain'));
      const broken = (brokenAt: number | null, reason: string): ChainCheck => ({
        intact: false,
        rows,
        brokenAt,
        reason,
      });

      // Each link against its predecessor's hash and its row's contents: a changed row fails its own check, a
      // removed row leaves its link without one, a removed link a gap in seq, one slipped in fails its check.
      const [link] = await db.query<{
        id: number;
        seq: number;
        prev_seq: number | null;
        present: boolean;
        hash_ok: boolean;
      }>(
        `select id, seq, prev_seq, present, hash_ok from (
           select c.audit_id as id, c.seq, c.prev_seq, a.id is not null as present,
                  c.hash is not distinct from audit_row_hash(coalesce(c.prev_hash, $1), c.seq, a) as hash_ok
           from (select seq, audit_id, hash, lag(seq) over w as prev_seq, lag(hash) over w as prev_hash from audit_chain window w as (order by seq)) c
           left join audit_log a on a.id = c.audit_id
         ) chain
         where seq <> coalesce(prev_seq, 0) + 1 or not present or not hash_ok
         order by seq limit 1`,
        [GENESIS],
      );
      if (link) {
        const { id, seq } = link;
        const prev = link.prev_seq ?? 0;
        if (seq > prev + 1)
          return broken(id, `${seq - prev - 1} row(s) before row ${id} were removed (seq ${prev + 1} to ${seq - 1})`);
        if (!link.present) return broken(id, `row ${id} (seq ${seq}) was removed`);
        return broken(id, `row ${id} was changed: its hash does not match its contents and the previous row's hash`);
      }

      // The head remembers the last link, so links removed from the end are missed too.
      const ends = onlyRow(
        await db.query<{ head_seq: number | null; head_ok: boolean; last_id: number | null; last_seq: number | null }>(
          `select h.seq as head_seq, h.hash is not distinct from l.hash as head_ok, l.audit_id as last_id, l.seq as last_seq
         from (select 1) one
         left join audit_chain_head h on true
         left join lateral (select audit_id, seq, hash from audit_chain order by seq desc limit 1) l on true`,
        ),
      );
      if (ends.head_seq === null) return broken(null, 'the chain head (audit_chain_head) is missing');
      const [headSeq, lastSeq, lastId] = [ends.head_seq, ends.last_seq ?? 0, ends.last_id];
      if (headSeq > lastSeq)
        return broken(
          lastId,
          `${headSeq - lastSeq} row(s) after the last one were removed (seq ${lastSeq + 1} to ${headSeq})`,
        );
      if (headSeq < lastSeq || (lastSeq > 0 && !ends.head_ok))
        return broken(lastId, `row ${lastId} does not match the chain head`);

      // A row the sealer has passed without sealing it was slipped in around Medora's writer. A set difference: a
      // `not exists` on the chain (a view over arrays, without an index) walked the whole chain for every row.
      const { id: outsider } = onlyRow(
        await db.query<{ id: number | null }>(
          `select min(id) as id from (
             select a.id from audit_log a, audit_chain_head h
             where not audit_is_anonymous(a.action, a.actor_user_id, a.entity_id)
               and (a.tx is null or (a.tx, a.id) <= (h.sealed_tx, h.sealed_id))
             except
             select unnest(audit_ids) from audit_chain_batches
           ) outsiders`,
        ),
      );
      if (outsider !== null)
        return broken(outsider, `row ${outsider} is outside the chain but is not an anonymous sign-in failure`);
      return { intact: true, rows };
    },
    // The owner's function (migration 0021): it elects one sealer and takes only rows no transaction can still add to.
    seal: async (maxRows) =>
      onlyRow(await db.query<{ sealed: number | null }>('select audit_seal($1) as sealed', [maxRows])).sealed,
    // The database's own clock, the one that wrote `at`.
    backlog: async () => {
      const row = onlyRow(
        await db.query<{ rows: number; oldest_age_seconds: number | null }>(
          `select count(*)::int as rows, extract(epoch from clock_timestamp() - min(a.at))::float8 as oldest_age_seconds
           from audit_log a, audit_chain_head h
           where (a.tx, a.id) > (h.sealed_tx, h.sealed_id) and not audit_is_anonymous(a.action, a.actor_user_id, a.entity_id)`,
        ),
      );
      return { rows: row.rows, oldestAgeSeconds: row.oldest_age_seconds };
    },
    // The owner's function (migration 0015): an application role of its own has no DELETE on the trail.
    pruneAnonymous: async (before) =>
      onlyRow(await db.query<{ n: number }>('select audit_prune_anonymous($1) as n', [before])).n,
  };
}

/**
 * Re-bases the sealer's place on a database just loaded from a backup, in the loading transaction. Rows carry the
 * transaction that wrote them and the place is one of them (migration 0032), ids of the cluster the backup came
 * from: a new cluster starts lower, so its rows would sort before the place and never be sealed. Rows the sealer
 * had passed forget their transaction (as rows from before 0032 do); rows still waiting take '2', below every
 * transaction id any cluster hands out, to be sealed first in the order of their ids; the place goes before them.
 * The hashes cover neither. A dump from before 0032 has no place yet: that migration sets one when it runs.
 */
export async function rebaseAuditChain(tx: Queryable): Promise<void> {
  const [placed] = await tx.query<{ placed: boolean }>(
    `select exists (select 1 from information_schema.columns
                    where table_schema = current_schema() and table_name = 'audit_chain_head' and column_name = 'sealed_tx') as placed`,
  );
  if (!placed?.placed) return;
  // The sealer's turn (audit_seal), in case one runs already: it would see the place half moved. Every row of a
  // clinic's trail is rewritten once, longer than a request's statement may take.
  await tx.query('select pg_advisory_xact_lock(727021)');
  await tx.exec(`set local statement_timeout = '15min'`);
  await tx.exec('alter table audit_log disable trigger audit_log_append_only');
  await tx.exec(
    `update audit_log a set tx = null from audit_chain_head h where a.tx is not null and (a.tx, a.id) <= (h.sealed_tx, h.sealed_id);
     update audit_log set tx = '2' where tx is not null and tx <> '2';
     update audit_chain_head set sealed_tx = '1', sealed_id = 0`,
  );
  await tx.exec('alter table audit_log enable trigger audit_log_append_only');
}
