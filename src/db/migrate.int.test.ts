import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite } from './embedded/pglite.ts';
import { openPostgres } from './postgres.ts';
import { acquireDataDirLock, DatabaseLockedError } from './embedded/data-dir-lock.ts';
import { migrate, readMigrations } from './migrate.ts';
import type { Db } from './db.ts';
import { type DataDirCopy, embeddedDataDir, testDatabases } from '../testing/test-db.ts';
import { fileURLToPath } from 'node:url';
import { only, present } from '../testing/assert.ts';
import { spawnMedora } from '../testing/cli.ts';
import { serveRefused } from '../testing/server-process.ts';

const CHANGED =
  /migrations\/0003_patient_search_text\.sql changed after it was applied to this database .*forward-only/;

/** The migrations as read from a copy of the folder in which 0003 was edited after it had landed. */
function migrationsWithEditedFile(): ReturnType<typeof readMigrations> {
  const dir = mkdtempSync(join(tmpdir(), 'medora-migrations-'));
  try {
    cpSync(fileURLToPath(new URL('../../migrations/', import.meta.url)), dir, { recursive: true });
    appendFileSync(join(dir, '0003_patient_search_text.sql'), '\n-- an edit after the file landed\n');
    return readMigrations(`${dir}/`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const target of testDatabases('both')) {
  // One database for the file's tests: each reads or changes the bookkeeping and puts it back, the one that leaves
  // a file unapplied runs last; opening an embedded database costs seconds of CPU time.
  describe(`migrations on ${target.name}`, () => {
    let db: Db;
    let drop: (() => Promise<void>) | undefined;
    before(async () => {
      ({ db, drop } = await target.open());
    });
    after(() => drop?.());

    it('applies nothing twice and records every file', async () => {
      assert.deepEqual(await migrate(db), [], 'open() already migrated');
      const rows = await db.query('select version, name from schema_migrations order by version');
      assert.deepEqual(
        rows.map((r) => r.name),
        readMigrations().map((m) => m.name),
      );
    });

    it('rolls back a failing file whole, bookkeeping included', async () => {
      const broken = {
        version: 9001,
        name: '9001_broken.sql',
        sql: 'create table half_done (id int); select * from no_such_table;',
        checksum: 'none',
      };
      await assert.rejects(migrate(db, [broken]));
      const row = only(
        await db.query(
          `select to_regclass('half_done') as t, (select count(*)::int from schema_migrations where version = 9001) as n`,
        ),
      );
      assert.equal(row.t, null);
      assert.equal(row.n, 0);
    });

    it('records the sha256 of each file it applies', async () => {
      const rows = await db.query<{ name: string; checksum: string }>(
        'select name, checksum from schema_migrations order by version',
      );
      assert.deepEqual(
        rows,
        readMigrations().map(({ name, checksum }) => ({ name, checksum })),
      );
      assert.match(rows[0]?.checksum ?? '', /^[0-9a-f]{64}$/);
    });

    it('gives a database migrated before checksums were recorded the checksums of its files', async () => {
      await db.exec('alter table schema_migrations drop column checksum');
      assert.deepEqual(await migrate(db), []);
      const rows = await db.query<{ name: string; checksum: string }>(
        'select name, checksum from schema_migrations order by version',
      );
      assert.deepEqual(
        rows,
        readMigrations().map(({ name, checksum }) => ({ name, checksum })),
      );
    });

    it('keeps the case-insensitive email unique and the one-booking-per-slot index', async () => {
      await db.query(`insert into users (name, email, password_hash, role) values ('A', 'a@x.test', 'h', 'patient')`);
      await assert.rejects(
        db.query(`insert into users (name, email, password_hash, role) values ('B', 'A@X.test', 'h', 'patient')`),
        { code: '23505' },
      );
      await assert.rejects(
        db.query(`insert into users (name, email, password_hash, role) values ('C', 'c@x.test', 'h', 'root')`),
        { code: '23514' },
      );
    });

    it('refuses to migrate when an applied file has changed, naming the file', async () => {
      const edited = migrationsWithEditedFile();
      await assert.rejects(migrate(db, edited), (error: Error) => CHANGED.test(error.message));
      await db.exec('delete from schema_migrations where version = 32');
      await assert.rejects(migrate(db, edited), (error: Error) => CHANGED.test(error.message));
      assert.equal(
        only(await db.query('select count(*)::int as n from schema_migrations where version = 32')).n,
        0,
        'nothing pending was applied',
      );
    });
  });
}

describe('two instances starting together on one PostgreSQL database', { skip: !process.env.TEST_DATABASE_URL }, () => {
  it('both come up and each migration runs once', async (t) => {
    const postgres = present(
      testDatabases('both').find((target) => target.name === 'postgres'),
      'PostgreSQL target',
    );
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

// One copy of the embedded template for both tests: booting PGlite costs seconds of CPU time. The first leaves the
// folder closed and unchanged; the second opens it again in this process, as the first one's opener closed it.
describe('the embedded database', () => {
  let copy: DataDirCopy | undefined;
  before(async () => {
    copy = await embeddedDataDir();
  });
  after(() => copy?.remove());

  it('refuses a second process-level opener with a clear message, and lets the folder go on close', async () => {
    const { dataDir } = present(copy, 'the data folder');
    const first = await openPglite(dataDir);
    try {
      await assert.rejects(
        openPglite(dataDir),
        (error: unknown) =>
          error instanceof DatabaseLockedError && /is open in this process already/.test((error as Error).message),
      );
    } finally {
      await first.close();
    }
    // Released: the next opener takes the folder (the next test opens PGlite on it again).
    (await acquireDataDirLock(dataDir, 'command')).release();
  });

  it('stops `medora migrate` and `medora serve` with an error naming a migration edited after it was applied', async () => {
    const { dataDir } = present(copy, 'the data folder');
    const db = await openPglite(dataDir);
    try {
      // As if 0003's file had been edited: the checksum recorded differs from the file's.
      await db.exec(`update schema_migrations set checksum = repeat('0', 64) where version = 3`);
    } finally {
      await db.close();
    }
    const migrating = await spawnMedora(['migrate'], { env: { DATA_DIR: dataDir } });
    assert.equal(migrating.code, 1);
    assert.match(migrating.stderr, /^error: migrations\/0003_patient_search_text\.sql changed after it was applied/m);
    const serving = await serveRefused({ DATA_DIR: dataDir, SEED_DEMO: '0' });
    assert.equal(serving.exit, '1');
    assert.match(serving.output, /error: migrations\/0003_patient_search_text\.sql changed after it was applied/);
  });
});
