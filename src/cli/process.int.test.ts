/**
 * The real `medora` process, as cron and an admin's shell start it: the esbuild bundle behind bin/medora.js, the
 * database from the environment, exit codes and output through real pipes. Every command's behaviour is tested
 * in process by the other CLI tests; these check the wiring around them.
 */
import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { acquireDataDirLock } from '../db/embedded/data-dir-lock.ts';
import { present } from '../testing/assert.ts';
import { spawnMedora } from '../testing/cli.ts';
import { embeddedDataDir, testDatabases } from '../testing/test-db.ts';

const EMPTY_STATS = {
  appointment_count: 0,
  patient_count: 0,
  doctor_count: 0,
  average_diseases_per_doctor: 0,
  top_doctor: null,
};

describe('the medora process', () => {
  it('describes every command group in --help', async () => {
    const help = await spawnMedora(['--help'], { env: {} });
    assert.equal(help.code, 0, help.stderr);
    for (const command of [
      'serve',
      'migrate',
      'seed',
      'admin',
      'departments',
      'specializations',
      'diseases',
      'rooms',
      'doctors',
      'schedule',
      'closures',
      'import',
      'report',
      'backup',
      'restore',
      'move-to',
    ]) {
      assert.match(help.stdout, new RegExp(`^  ${command}\\b`, 'm'));
    }
  });

  it('exits 2 for a usage error, before opening any database', async () => {
    const run = await spawnMedora(['report', 'billing', '--since', '2026-01-01'], {
      env: { DATA_DIR: '/nonexistent/medora' },
    });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /unknown option '--since'/);
  });

  describe('on an embedded database in DATA_DIR', () => {
    let dataDir: string;
    let remove: () => Promise<void>;
    before(async () => {
      ({ dataDir, remove } = await embeddedDataDir());
    });
    after(() => remove());

    it('prints a report as JSON into a pipe', async () => {
      const run = await spawnMedora(['report', 'stats'], { env: { DATA_DIR: dataDir } });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), EMPTY_STATS);
    });

    it('says the database is held by another command and how to proceed', async () => {
      // This process holds the folder's lock as a command that opened it itself does (openPglite takes this lock
      // before it opens PGlite, which would cost seconds of CPU time for nothing here); a server would let the CLI in.
      const held = await acquireDataDirLock(dataDir, 'command');
      try {
        const run = await spawnMedora(['departments', 'list'], { env: { DATA_DIR: dataDir } });
        assert.equal(run.code, 1);
        assert.match(
          run.stderr,
          new RegExp(
            `^error: The embedded database in .* is in use by another Medora process \\(a medora command, pid ${process.pid}\\)`,
            'm',
          ),
        );
        assert.match(run.stderr, /Stop that process and try again, or set DATABASE_URL/);
      } finally {
        held.release();
      }
    });
  });

  const postgres = testDatabases('both').find((target) => target.name === 'postgres');

  // The report opens the database before it checks its dates: on PostgreSQL when there is one, which a process
  // reaches in a fraction of the CPU time it takes to open PGlite. The exit code and the message are the CLI's, the
  // same on either database.
  it('exits 1 naming the field of a refused value', async () => {
    const database = postgres ? await postgres.open() : undefined;
    const embedded = database ? undefined : await embeddedDataDir();
    try {
      const env: Record<string, string> = database
        ? { DATABASE_URL: present(database.url, 'database URL') }
        : { DATA_DIR: present(embedded).dataDir };
      const run = await spawnMedora(['report', 'billing', '--from', '2026-02-30'], { env });
      assert.equal(run.code, 1);
      assert.match(run.stderr, /^error: from: must be a date as yyyy-MM-dd$/m);
    } finally {
      await database?.drop();
      await embedded?.remove();
    }
  });

  it('prints a report from the PostgreSQL database in DATABASE_URL', {
    skip: !postgres && 'needs TEST_DATABASE_URL',
  }, async () => {
    const database = await present(postgres, 'PostgreSQL target').open();
    try {
      const run = await spawnMedora(['report', 'stats'], {
        env: { DATABASE_URL: present(database.url, 'database URL') },
      });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), EMPTY_STATS);
    } finally {
      await database.drop();
    }
  });
});
