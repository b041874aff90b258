import { setTimeout as sleep } from 'node:timers/promises';
import { auditTrail } from '../db/audit.pg.ts';
import type { Db, Queryable } from '../db/db.ts';

/**
 * Seals every committed audit row, as the server's sealer would within moments. On a shared PostgreSQL server a
 * write transaction of another database still running holds sealing back (the horizon is the server's), so this
 * tries again until nothing waits, within `timeoutMs`.
 */
export async function sealAll(db: Queryable, timeoutMs = 30_000): Promise<void> {
  const trail = auditTrail(db);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await trail.seal(1000);
    const { rows } = await trail.backlog();
    if (rows === 0) return;
    if (Date.now() > deadline) throw new Error(`${rows} audit row(s) still unsealed after ${timeoutMs} ms`);
    await sleep(20);
  }
}

/**
 * As a superuser could, in `tx` with the chain's triggers off: the chain's links become those `select` yields over
 * `links` (seq, audit_id, hash: the links as they are), each a batch of its own, so a link left out leaves a gap.
 */
export async function relink(tx: Queryable, select: string): Promise<void> {
  await tx.exec(
    `create temporary table relinked on commit drop as with links as (select seq, audit_id, hash from audit_chain) ${select}`,
  );
  await tx.exec(
    `delete from audit_chain_batches;
     insert into audit_chain_batches (first_seq, audit_ids, hashes) select seq, array[audit_id], hash from relinked;
     drop table relinked`,
  );
}

const AUDIT_TABLES = ['audit_log', 'audit_chain_batches', 'audit_checkpoints'];

/**
 * Runs `change` — SQL, or a function of the transaction — as a superuser or the tables' owner could: with the audit
 * tables' append-only triggers off meanwhile.
 */
export async function asTrailOwner(
  db: Db,
  change: string | ((tx: Queryable) => Promise<unknown>),
  params: unknown[] = [],
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const table of AUDIT_TABLES) await tx.exec(`alter table ${table} disable trigger user`);
    await (typeof change === 'string' ? tx.query(change, params) : change(tx));
    for (const table of AUDIT_TABLES) await tx.exec(`alter table ${table} enable trigger user`);
  });
}
