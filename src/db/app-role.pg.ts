import { DomainError } from '../domain/shared/errors.ts';
import type { Db, Queryable } from './db.ts';
import { MIGRATION_LOCK_KEY } from './migrate.ts';
import { onlyRow } from './rows.ts';

/** Who a connection runs as, and whether that role could alter the audit trail's triggers (owner or superuser). */
export interface ConnectedRole {
  user: string;
  owner: string | null;
  /** A superuser, the tables' owner, or a member of the owner's role: it may disable triggers and rewrite the trail. */
  mayAlterTrail: boolean;
}

export async function connectedRole(db: Queryable): Promise<ConnectedRole> {
  const row = onlyRow(
    await db.query<ConnectedRole>(
      `select current_user as "user", pg_get_userbyid(c.relowner) as owner,
              r.rolsuper or coalesce(pg_has_role(current_user, c.relowner, 'MEMBER'), false) as "mayAlterTrail"
       from pg_roles r left join pg_class c on c.oid = to_regclass('audit_log') where r.rolname = current_user`,
    ),
  );
  return row;
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Grants `role` what the application needs on every table of the current schema, and on the audit trail no more
 * than INSERT and SELECT (its rows' notes to the sealer included): sealing (migration 0021) and retention run as the
 * owner, so the role can neither alter triggers, write the chain or move its head, nor change or delete a row. Run by the owner, after every
 * migration (a new table needs its grant); under the migrations' lock, as concurrent GRANTs on one table fail.
 */
export async function grantAppRole(db: Db, role: string): Promise<void> {
  const [found] = await db.query<{ may_alter: boolean }>(
    `select r.rolsuper or pg_has_role(r.oid, c.relowner, 'MEMBER') as may_alter
     from pg_roles r, pg_class c where r.rolname = $1 and c.oid = to_regclass('audit_log')`,
    [role],
  );
  if (!found)
    throw new DomainError(
      'not_found',
      'not_found',
      `no role "${role}" in this database (or its schema is not migrated)`,
    );
  if (found.may_alter) {
    throw new DomainError(
      'invalid',
      'role_owns_tables',
      `role "${role}" owns Medora's tables or is a superuser: the application role must be another one`,
    );
  }
  const r = ident(role);
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    const { schema } = onlyRow(await tx.query<{ schema: string }>('select current_schema() as schema'));
    const s = ident(schema);
    await tx.exec(`
      grant usage on schema ${s} to ${r};
      grant select, insert, update, delete on all tables in schema ${s} to ${r};
      grant usage, select on all sequences in schema ${s} to ${r};
      revoke all on audit_log, audit_checkpoints, audit_chain_batches, audit_chain, audit_chain_head, schema_migrations from ${r};
      grant select, insert on audit_log, audit_checkpoints to ${r};
      grant select on audit_chain_batches, audit_chain, audit_chain_head, schema_migrations to ${r};
      grant execute on function audit_prune_anonymous(timestamptz), audit_seal(integer) to ${r};
    `);
  });
}
