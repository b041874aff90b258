import pg from 'pg';
import type { Queryable, Row } from '../db.ts';
import { BackupError } from '../backup-error.ts';
import { createPglite, pgliteDb } from './pglite.ts';
import { tableCounts, describeCounts, type TableCount } from '../table-counts.ts';
import { auditTrail, rebaseAuditChain } from '../audit.pg.ts';
import { DEFAULT_TIMEOUTS } from '../timeouts.ts';

export interface Move {
  /** What the target held before, replaced with `force`. */
  replaced: TableCount[];
  moved: TableCount[];
  auditRows: number;
}

/**
 * Loads the SQL of an embedded backup (pg_dump 18's, run in PGlite) into a PostgreSQL 15+ database in one
 * transaction, which commits only when every table holds as many rows as the dump and the audit chain verifies.
 */
export async function moveToPostgres(sql: string, url: string, opts: { force: boolean }): Promise<Move> {
  const client = new pg.Client({ connectionString: url });
  // A lost connection fails the query under way; without a listener it would end the process.
  client.on('error', () => {});
  await client.connect();
  try {
    const tx = queryable(client);
    const replaced = await targetContents(tx);
    if (replaced.length > 0 && !opts.force) {
      throw new BackupError(
        `${hidePassword(url)} is not empty (${describeCounts(replaced)}); add --force to replace it`,
      );
    }
    // After the target's check: loading the dump into a PGlite of its own takes seconds, which a refusal need not wait.
    const expected = await countsOfDump(sql);
    const known = new Set((await tx.query<{ name: string }>('select name from pg_settings')).map(({ name }) => name));
    await tx.exec('begin');
    try {
      if (replaced.length > 0) {
        // Everything the dump creates lives in public; PostgreSQL 15 gives PUBLIC usage on a new database's public.
        await tx.exec('drop schema public cascade; create schema public; grant usage on schema public to public');
      }
      await tx.exec(forPostgres(sql, known));
      await tx.exec('reset search_path');
      // The audit rows' transactions are the embedded cluster's; the server's own go on from where it stands.
      await rebaseAuditChain(tx);
      const moved = await tableCounts(tx);
      if (describeCounts(moved) !== describeCounts(expected)) {
        throw new BackupError(
          `the rows loaded (${describeCounts(moved)}) differ from the backup's (${describeCounts(expected)})`,
        );
      }
      const chain = await auditTrail(tx).verify();
      if (!chain.intact) throw new BackupError(`the audit chain does not verify after the move: ${chain.reason}`);
      await tx.exec('commit');
      return { replaced, moved, auditRows: chain.rows };
    } catch (error) {
      await tx.exec('rollback').catch(() => {});
      throw new BackupError(`Nothing was moved to ${hidePassword(url)}: ${(error as Error).message}`);
    }
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The dump as PostgreSQL 15 takes it: whole lines pg_dump writes are dropped, never part of a statement —
 * settings the server does not know (`SET transaction_timeout`, new in 17), psql's meta-commands (`\restrict`),
 * and the extension's comment, which only the extension's owner may set (it may have been created by another role).
 */
export function forPostgres(sql: string, knownSettings: ReadonlySet<string>): string {
  return sql
    .split('\n')
    .filter((line) => {
      const setting = /^SET (\w+) = .*;$/.exec(line)?.[1];
      if (setting !== undefined) return knownSettings.has(setting);
      return !/^\\(un)?restrict \w+$/.test(line) && !/^COMMENT ON EXTENSION \w+ IS '.*';$/.test(line);
    })
    .join('\n');
}

/** Rows per table as the backup holds them: the dump loaded into a PGlite in memory, as `medora restore` would. */
async function countsOfDump(sql: string): Promise<TableCount[]> {
  const db = pgliteDb(await createPglite(undefined), DEFAULT_TIMEOUTS, () => {});
  try {
    await db.exec(sql);
    await db.exec('reset all');
    return await tableCounts(db);
  } finally {
    await db.close();
  }
}

/** What a move would replace: rows in any table, or a migrated schema with none. */
async function targetContents(db: Queryable): Promise<TableCount[]> {
  const counts = await tableCounts(db);
  if (counts.length > 0) return counts;
  const [migrated] = await db.query<{ name: string | null }>(`select to_regclass('schema_migrations')::text as name`);
  return migrated?.name ? [{ table: 'schema_migrations', rows: 0 }] : [];
}

function queryable(client: pg.Client): Queryable {
  return {
    query: async <T extends object = Row>(text: string, params?: unknown[]) =>
      (await client.query<T & pg.QueryResultRow>(text, params)).rows,
    exec: async (text: string) => void (await client.query(text)),
  };
}

/** A server's URL to print: user, host and database, never the password. */
export function hidePassword(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'the database';
  }
}
