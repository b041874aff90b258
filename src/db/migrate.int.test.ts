import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import { DatabaseLockedError } from './data-dir-lock.ts';
import { migrate, readMigrations } from './migrate.ts';
import { embeddedDataDir, testDatabases } from '../testing/test-db.ts';
import { only, present } from '../testing/assert.ts';

for (const target of testDatabases()) {
  describe(`migrations on ${target.name}`, () => {
    it('applies nothing twice and records every file', async () => {
      const { db, drop } = await target.open();
      try {
        assert.deepEqual(await migrate(db), [], 'open() already migrated');
        const rows = await db.query('select version, name from schema_migrations order by version');
        assert.deepEqual(rows.map((r) => r.name), readMigrations().map((m) => m.name));
      } finally {
        await drop();
      }
    });

    it('rolls back a failing file whole, bookkeeping included', async () => {
      const { db, drop } = await target.open();
      try {
        const broken = { version: 9001, name: '9001_broken.sql', sql: 'create table half_done (id int); select * from no_such_table;' };
        await assert.rejects(migrate(db, [broken]));
        const row = only(await db.query(`select to_regclass('half_done') as t, (select count(*)::int from schema_migrations where version = 9001) as n`));
        assert.equal(row.t, null);
        assert.equal(row.n, 0);
      } finally {
        await drop();
      }
    });

    it('keeps the case-insensitive email unique and the one-booking-per-slot index', async () => {
      const { db, drop } = await target.open();
      try {
        await db.query(`insert into users (name, email, password_hash, role) values ('A', 'a@x.test', 'h', 'patient')`);
        await assert.rejects(db.query(`insert into users (name, email, password_hash, role) values ('B', 'A@X.test', 'h', 'patient')`), { code: '23505' });
        await assert.rejects(db.query(`insert into users (name, email, password_hash, role) values ('C', 'c@x.test', 'h', 'root')`), { code: '23514' });
      } finally {
        await drop();
      }
    });
  });
}

describe('two instances starting together on one PostgreSQL database', { skip: !process.env.TEST_DATABASE_URL }, () => {
  it('both come up and each migration runs once', async (t) => {
    const postgres = present(testDatabases().find((target) => target.name === 'postgres'), 'PostgreSQL target');
    const { url, drop, db } = await postgres.open();
    // After both instances close; also when emptying the schema or opening them fails.
    t.after(() => drop());
    await db.exec('drop schema public cascade; create schema public');
    const [a, b] = [await openPostgres(present(url, 'database URL')), await openPostgres(present(url, 'database URL'))];
    try {
      const [appliedA, appliedB] = await Promise.all([migrate(a), migrate(b)]);
      assert.equal(appliedA.length + appliedB.length, readMigrations().length);
      const { n } = only(await a.query('select count(*)::int as n from schema_migrations'));
      assert.equal(n, readMigrations().length);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('the embedded database lock', () => {
  it('refuses a second process-level opener with a clear message', async () => {
    const { dataDir, remove } = await embeddedDataDir();
    try {
      const first = await openPglite(dataDir);
      try {
        await assert.rejects(openPglite(dataDir), (error: unknown) => error instanceof DatabaseLockedError && /is open in this process already/.test((error as Error).message));
      } finally {
        await first.close();
      }
      const again = await openPglite(dataDir);
      await again.close();
    } finally {
      await remove();
    }
  });
});
