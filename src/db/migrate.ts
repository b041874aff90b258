import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));
// Any constant works; it only has to be the same for every Medora instance sharing a database.
export const MIGRATION_LOCK_KEY = 727_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{4}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => ({ version: Number(file.slice(0, 4)), name: file, sql: readFileSync(dir + file, 'utf8') }));
}

/**
 * Applies pending migrations, each in its own transaction under an advisory lock with its bookkeeping
 * row written first, so instances starting together apply each file exactly once (graphile-worker's pattern).
 */
export async function migrate(db: Db, migrations = readMigrations()): Promise<string[]> {
  await db.exec(`create table if not exists schema_migrations (
    version integer primary key,
    name text not null,
    applied_at timestamptz not null default now()
  )`).catch(async (error) => {
    // Two instances creating the table at the same moment: the loser sees it exist afterwards.
    const [row] = await db.query<{ exists: boolean }>(`select to_regclass('schema_migrations') is not null as exists`);
    if (!row?.exists) throw error;
  });
  const applied: string[] = [];
  for (const migration of migrations) {
    const ran = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const done = await tx.query('select 1 from schema_migrations where version = $1', [migration.version]);
      if (done.length > 0) return false;
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [migration.version, migration.name]);
      await tx.exec(migration.sql);
      return true;
    });
    if (ran) applied.push(migration.name);
  }
  return applied;
}

/**
 * Migrations the database has and this code does not know: a newer release ran here first. Medora starts anyway
 * and the caller warns: in a rolling deploy old and new instances share the database, and migrations are written
 * expand-then-contract (nothing an older release reads is dropped in the release that stops reading it), so the
 * older code still works, and refusing to start would make every rollback an outage.
 */
export async function newerMigrations(db: Db, migrations = readMigrations()): Promise<string[]> {
  const known = migrations.map((migration) => migration.version);
  const rows = await db.query<{ name: string }>('select name from schema_migrations where version <> all($1::int[]) order by version', [known]);
  return rows.map((row) => row.name);
}
