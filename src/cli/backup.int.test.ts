import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { makeApp } from '../app.ts';
import { openPostgres, runOnConnection } from '../db/postgres.ts';
import { migrate } from '../db/migrate.ts';
import { tableCounts, type TableCount } from '../db/table-counts.ts';
import { seedDemo } from '../demo/seed.ts';
import { systemClock } from '../domain/shared/clock.ts';
import { spawnMedora, type CliRun } from '../testing/cli.ts';
import { medora } from './main.ts';
import { endsWithTestFile } from '../testing/child-processes.ts';
import { present } from '../testing/assert.ts';

const serverUrl = process.env.TEST_DATABASE_URL;
const BIN = fileURLToPath(new URL('../../bin/medora.js', import.meta.url));

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * `medora ...args` in this process, `env` set in process.env while it runs (the commands read their configuration
 * there): for what a command decides (a refusal, the URL it dumps from, a usage error), where starting a process
 * of its own (most of a second of CPU time each) proves nothing more. The round trip, the missing pg_dump and the
 * killed backup run the real process.
 */
async function medoraHere(args: string[], env: Record<string, string>): Promise<CliRun> {
  const saved = Object.entries(env).map(([name]) => [name, process.env[name]] as const);
  Object.assign(process.env, env);
  let [stdout, stderr] = ['', ''];
  const noDatabase = () => Promise.reject(new Error('backup and restore open no app'));
  try {
    const code = await medora(args, {
      getApp: noDatabase,
      getDb: noDatabase,
      io: {
        stdout: { write: (text) => (stdout += text) },
        stderr: { write: (text) => (stderr += text) },
        stdin: Readable.from(['']),
      },
    });
    return { code, stdout, stderr };
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

describe('backup and restore on PostgreSQL', { skip: !serverUrl && 'TEST_DATABASE_URL is not set' }, () => {
  const [sourceName, targetName] = [
    `medora_backup_${randomBytes(4).toString('hex')}`,
    `medora_restore_${randomBytes(4).toString('hex')}`,
  ];
  const names = [sourceName, targetName];
  const urlOf = (database: string) => {
    const url = new URL(present(serverUrl, 'TEST_DATABASE_URL'));
    url.pathname = `/${database}`;
    return url.toString();
  };
  const [source, target] = [urlOf(sourceName), urlOf(targetName)];
  let dir: string;
  const file = () => join(dir, 'clinic.dump');

  const countsAt = async (url: string): Promise<TableCount[]> => {
    const db = await openPostgres(url, { max: 1 });
    return tableCounts(db).finally(() => db.close());
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'medora-pg-backup-'));
    for (const name of names) await runOnConnection(present(serverUrl, 'TEST_DATABASE_URL'), `create database ${name}`);
    const db = await openPostgres(source, { max: 2 });
    try {
      await migrate(db);
      await seedDemo(
        makeApp({ db, clock: systemClock, config: { clinicTz: 'Europe/Berlin', clinicName: 'Backup Clinic' } }),
        db,
      );
    } finally {
      await db.close();
    }
  });

  after(async () => {
    for (const name of names)
      await runOnConnection(present(serverUrl, 'TEST_DATABASE_URL'), `drop database if exists ${name} with (force)`);
    await rm(dir, { recursive: true, force: true });
  });

  it("round-trips a seeded database through pg_dump's custom format", async () => {
    const backup = await spawnMedora(['backup', '--out', file()], { env: { DATABASE_URL: source } });
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /^Wrote .*clinic\.dump: \d+ kB in \d+\.\d s\.\n$/);
    assert.equal((await readFile(file())).subarray(0, 5).toString('latin1'), 'PGDMP');
    assert.equal((await stat(file())).mode & 0o777, 0o600, 'a dump holds password hashes: its owner alone reads it');

    const restore = await spawnMedora(['restore', file()], { env: { DATABASE_URL: target } });
    assert.equal(restore.code, 0, restore.stderr);
    const counts = await countsAt(source);
    assert.ok(present(counts.find(({ table }) => table === 'appointments')).rows > 0);
    assert.deepEqual(await countsAt(target), counts);
    assert.match(restore.stdout, /^Restored .*clinic\.dump in \d+\.\d s: .*\d+ appointments/);
  });

  it('refuses to restore over data unless forced, and then says what it replaces', async () => {
    const refused = await medoraHere(['restore', file()], { DATABASE_URL: target });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^error: The database is not empty \(.*\d+ users.*\); add --force to replace it\n$/);
    const forced = await medoraHere(['restore', '--force', file()], { DATABASE_URL: target });
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stdout, /^Replacing a database with .*\d+ users.*\.\nRestored /);
    assert.deepEqual(await countsAt(target), await countsAt(source));
  });

  it('dumps and restores through DATABASE_DIRECT_URL, past the transaction pooler DATABASE_URL names', async () => {
    // Nothing listens at DATABASE_URL: only the direct URL can be the one used.
    const pooler = 'postgres://postgres@127.0.0.1:1/medora';
    const direct = join(dir, 'direct.dump');
    const backup = await medoraHere(['backup', '--out', direct], { DATABASE_URL: pooler, DATABASE_DIRECT_URL: source });
    assert.equal(backup.code, 0, backup.stderr);
    assert.equal((await readFile(direct)).subarray(0, 5).toString('latin1'), 'PGDMP');
    const restore = await medoraHere(['restore', '--force', direct], {
      DATABASE_URL: pooler,
      DATABASE_DIRECT_URL: target,
    });
    assert.equal(restore.code, 0, restore.stderr);
    assert.deepEqual(await countsAt(target), await countsAt(source));
  });

  it('refuses an embedded backup, and says when pg_dump is missing', async () => {
    const embedded = join(dir, 'embedded.sql.gz');
    await writeFile(embedded, gzipSync('-- PostgreSQL database dump\n'));
    const wrongKind = await medoraHere(['restore', '--force', embedded], { DATABASE_URL: target });
    assert.equal(wrongKind.code, 1);
    assert.match(
      wrongKind.stderr,
      /is not a pg_dump custom-format backup of PostgreSQL but of an embedded database; restore it with DATABASE_URL unset/,
    );

    const missing = await spawnMedora(['backup', '--out', join(dir, 'never.dump')], {
      env: { DATABASE_URL: source, PATH: dir },
    });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^error: pg_dump is not installed; install PostgreSQL's client tools/);
  });

  it("takes pg_dump down with a killed backup, and the next backup, under another name, clears the killed one's leftover", async (t) => {
    const out = join(dir, 'killed.dump');

    // pg_dump waits for this lock (up to 30 s) before it writes anything.
    const holder = new pg.Client({ connectionString: source });
    await holder.connect();
    t.after(() => holder.end());
    await holder.query('begin');
    await holder.query('lock table appointments in access exclusive mode');
    const backup = endsWithTestFile(
      spawn(process.execPath, [BIN, 'backup', '--out', out], {
        env: { ...process.env, DATABASE_URL: source },
        stdio: 'ignore',
      }),
    );
    const partial = join(dir, `.killed.dump.${backup.pid}.partial`);
    // Not on the holder: pg_stat_activity keeps one snapshot for the whole of a transaction.
    const watcher = new pg.Client({ connectionString: source });
    await watcher.connect();
    t.after(() => watcher.end());
    const dumps = async () =>
      (
        await watcher.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = 'pg_dump'`,
          [sourceName],
        )
      ).rows[0]?.n;
    await until(async () => (await dumps()) === 1, 30_000, 'pg_dump waiting for the lock');
    backup.kill('SIGKILL');
    await holder.query('rollback');
    await until(async () => (await dumps()) === 0, 10_000, 'pg_dump gone');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal((await stat(partial)).size, 0, 'nothing went on writing the killed backup');
    await assert.rejects(stat(out), { code: 'ENOENT' });

    // The next backup has a name of its own, as the default names do (they carry the time).
    const next = join(dir, 'next.dump');
    const again = await spawnMedora(['backup', '--out', next], { env: { DATABASE_URL: source } });
    assert.equal(again.code, 0, again.stderr);
    await assert.rejects(stat(partial), { code: 'ENOENT' });
    assert.ok((await stat(next)).size > 0);
  });

  it('exits 2 on a usage error', async () => {
    // In this process: src/cli/process.int.test.ts proves a usage error's exit code 2 of the real process.
    const usage = await medoraHere(['restore'], { DATABASE_URL: target });
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /missing required argument 'file'/);
  });
});

describe('restoring an embedded backup that fails part way', () => {
  it('says so in one line, leaves the folder as it was and no half-restored copy beside it', async (t) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'medora-restore-'));
    t.after(() => rm(dataDir, { recursive: true, force: true }));
    const file = join(dataDir, 'broken.sql.gz');
    await writeFile(
      file,
      gzipSync('create table kept (id int);\nselect no_such_function();\n-- PostgreSQL database dump complete\n'),
    );
    const restore = await spawnMedora(['restore', file], { env: { DATA_DIR: dataDir } });
    assert.equal(restore.code, 1);
    assert.match(
      restore.stderr,
      /^error: .*broken\.sql\.gz could not be restored, and the database in .* is as it was: function no_such_function\(\) does not exist\n$/,
    );
    await assert.rejects(stat(join(dataDir, 'pglite.restoring')), { code: 'ENOENT' });
  });
});
