import { randomBytes } from 'node:crypto';
import { openPglite, openPostgres, runOnConnection, type Db } from '../db/db.ts';
import { migrate } from '../db/migrate.ts';

export interface TestDatabase {
  name: string;
  /** A migrated, empty database of its own; `drop()` closes it and removes what it made. */
  open(): Promise<{ db: Db; url?: string; schema?: string; drop(): Promise<void> }>;
}

/** PGlite always; the PostgreSQL server too when TEST_DATABASE_URL is set. Each open() is a fresh schema. */
export function testDatabases(): TestDatabase[] {
  const targets: TestDatabase[] = [
    {
      name: 'pglite',
      open: async () => {
        const db = await openPglite(undefined);
        await migrate(db);
        return { db, drop: () => db.close() };
      },
    },
  ];
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    targets.push({
      name: 'postgres',
      open: async () => {
        const schema = `medora_test_${randomBytes(6).toString('hex')}`;
        await runOnConnection(url, `create schema ${schema}`);
        const db = await openPostgres(url, { schema });
        await migrate(db);
        return {
          db,
          url,
          schema,
          drop: async () => {
            await db.close();
            await runOnConnection(url, `drop schema ${schema} cascade`);
          },
        };
      },
    });
  }
  return targets;
}
