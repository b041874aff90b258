import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DomainError } from '../domain/shared/errors.ts';
import type { Db, Queryable } from './db.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));
// Any constant works; it only has to be the same for every Medora instance sharing a database.
export const MIGRATION_LOCK_KEY = 727_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** sha256 of the file, hex: what schema_migrations records when it is applied. */
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const bytes = readFileSync(dir + file);
      return {
        version: Number(file.slice(0, 4)),
        name: file,
        sql: bytes.toString('utf8'),
        checksum: createHash('sha256').update(bytes).digest('hex'),
      };
    });
}

/**
 * Applies pending migrations, each in its own transaction under an advisory lock with its bookkeeping
 * row written first, so instances starting together apply each file exactly once (graphile-worker's pattern).
 * Refuses to run when a file applied before has changed since.
 */
export async function migrate(db: Db, migrations = readMigrations()): Promise<string[]> {
  await db
    .exec(`create table if not exists schema_migrations (
    version integer primary key,
    name text not null,
    applied_at timestamptz not null default now(),
    checksum text
  )`)
    .catch(async (error) => {
      // Two instances creating the table at the same moment: the loser sees it exist afterwards.
      const [row] = await db.query<{ exists: boolean }>(
        `select to_regclass('schema_migrations') is not null as exists`,
      );
      if (!row?.exists) throw error;
    });
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await recordChecksums(tx, migrations);
  });
  const applied: string[] = [];
  for (const migration of migrations) {
    const ran = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const done = await tx.query('select 1 from schema_migrations where version = $1', [migration.version]);
      if (done.length > 0) return false;
      await tx.query('insert into schema_migrations (version, name, checksum) values ($1, $2, $3)', [
        migration.version,
        migration.name,
        migration.checksum,
      ]);
      await tx.exec(migration.sql);
      return true;
    });
    if (ran) applied.push(migration.name);
  }
  return applied;
}

/**
 * Checks every applied migration against its file. A database from before checksums were recorded gets the column
 * and its rows' checksums from the files as they are now, since those are the files it was migrated from. Each step
 * writes only when there is something to write, so a role that may only read schema_migrations can still start.
 */
async function recordChecksums(tx: Queryable, migrations: Migration[]): Promise<void> {
  const [column] = await tx.query(
    `select 1 from information_schema.columns
     where table_schema = current_schema() and table_name = 'schema_migrations' and column_name = 'checksum'`,
  );
  if (!column) await tx.exec('alter table schema_migrations add column checksum text');
  const rows = await tx.query<{ version: number; checksum: string | null }>(
    'select version, checksum from schema_migrations order by version',
  );
  const files = new Map(migrations.map((migration) => [migration.version, migration]));
  const changed = rows.filter(
    (row) => row.checksum !== null && files.has(row.version) && files.get(row.version)?.checksum !== row.checksum,
  );
  if (changed.length > 0) {
    const names = changed.map((row) => `migrations/${files.get(row.version)?.name}`).join(', ');
    throw new DomainError(
      'conflict',
      'migration_changed',
      `${names} changed after ${changed.length === 1 ? 'it was' : 'they were'} applied to this database (its checksum differs from the one recorded): ` +
        'migrations are forward-only; restore the file as it was and put the change in a new migration',
    );
  }
  const missing = rows.filter((row) => row.checksum === null && files.has(row.version));
  if (missing.length === 0) return;
  await tx.query(
    `update schema_migrations as applied set checksum = file.checksum
     from unnest($1::int[], $2::text[]) as file (version, checksum)
     where applied.version = file.version and applied.checksum is null`,
    [missing.map((row) => row.version), missing.map((row) => files.get(row.version)?.checksum)],
  );
}

/**
 * Migrations the database has and this code does not know: a newer release ran here first. Medora starts anyway
 * and the caller warns: in a rolling deploy old and new instances share the database, and migrations are written
 * expand-then-contract (nothing an older release reads is dropped in the release that stops reading it), so the
 * older code still works, and refusing to start would make every rollback an outage.
 */
export async function newerMigrations(db: Db, migrations = readMigrations()): Promise<string[]> {
  const known = migrations.map((migration) => migration.version);
  const rows = await db.query<{ name: string }>(
    'select name from schema_migrations where version <> all($1::int[]) order by version',
    [known],
  );
  return rows.map((row) => row.name);
}
