import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuditEntry } from '../domain/audit/audit.ts';
import { auditLog, auditTrail } from '../db/audit.pg.ts';
import type { Db } from '../db/db.ts';
import { openEmbedded } from '../db/embedded/embedded.ts';
import { endsWithTestFile } from '../testing/child-processes.ts';
import { serveRefused, startServerProcess, type ServerProcess } from '../testing/server-process.ts';
import { embeddedDataDir, testDatabases, type OpenedTestDatabase } from '../testing/test-db.ts';

const BIN = fileURLToPath(new URL('../../bin/medora.js', import.meta.url));
const SEALED_WITHIN_MS = 30_000;
const admin = { userId: 1, role: 'admin' as const, name: 'Ada' };
const read = (n: number): AuditEntry => ({
  actor: admin,
  action: 'read_records',
  entity: 'patient',
  entityId: n,
  patientId: n,
});

/** Writes `rows` audited rows, each in its transaction, then waits (bounded) until none waits to be sealed. */
async function writeAndAwaitSealing(db: Db, rows: number): Promise<void> {
  for (let n = 1; n <= rows; n++) await db.transaction((tx) => auditLog(tx).record(read(n)));
  const deadline = Date.now() + SEALED_WITHIN_MS;
  while ((await auditTrail(db).backlog()).rows > 0) {
    assert.ok(Date.now() < deadline, `rows still unsealed after ${SEALED_WITHIN_MS} ms`);
    await sleep(50);
  }
}

/** `medora worker` as its own process, once it says it has started; `stop` ends it (bounded). */
async function startWorker(env: Record<string, string>): Promise<{ stop(): Promise<void> }> {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...inherited } = process.env;
  const child = endsWithTestFile(
    spawn(process.execPath, [BIN, 'worker'], {
      env: { ...inherited, CLINIC_TZ: 'Europe/Berlin', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(killer);
  };
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  const started = new Promise<void>((resolve) =>
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (/SMTP_URL|outbox/.test(output)) resolve();
    }),
  );
  const waiting = new AbortController();
  const timeout = sleep(60_000, 'timeout' as const, { signal: waiting.signal }).catch(() => undefined);
  const outcome = await Promise.race([started, exited.then(() => 'exited' as const), timeout]);
  waiting.abort();
  if (outcome) {
    await stop();
    throw new Error(`the worker did not start (${outcome}):\n${output}`);
  }
  return { stop };
}

const postgres = testDatabases('both').find((target) => target.name === 'postgres');

describe('the audit sealer in medora serve and medora worker', () => {
  describe('on PostgreSQL, a server and a worker sharing one database', {
    skip: !postgres && 'needs TEST_DATABASE_URL',
  }, () => {
    let database: OpenedTestDatabase;
    let server: ServerProcess | undefined;
    let worker: { stop(): Promise<void> } | undefined;
    before(async () => {
      database = await (postgres?.open() ?? Promise.reject(new Error('no server')));
    });
    after(async () => {
      await server?.stop();
      await worker?.stop();
      await database?.drop();
    });

    it('seals every committed row into one chain while both run, and the worker alone once the server stops', async () => {
      const env = { DATABASE_URL: database.url ?? '' };
      server = await startServerProcess({ ...env, SEED_DEMO: '0' });
      worker = await startWorker(env);
      await writeAndAwaitSealing(database.db, 20);
      await server.stop();
      await writeAndAwaitSealing(database.db, 5);
      assert.deepEqual(await auditTrail(database.db).verify(), { intact: true, rows: 25 });
    });

    it('leaves the sealing to the worker when the server runs with --no-worker', async () => {
      await worker?.stop();
      worker = undefined;
      const env = { DATABASE_URL: database.url ?? '' };
      server = await startServerProcess({ ...env, SEED_DEMO: '0' }, ['--no-worker']);
      // Said just after the line startServerProcess waits for.
      for (const deadline = Date.now() + 10_000; !/No worker in this process/.test(server.output()); await sleep(20)) {
        assert.ok(Date.now() < deadline, `the server did not say it runs no worker:\n${server.output()}`);
      }
      for (let n = 1; n <= 3; n++) await database.db.transaction((tx) => auditLog(tx).record(read(n)));
      await sleep(1000); // ten of a sealer's turns
      assert.equal((await auditTrail(database.db).backlog()).rows, 3, 'the server seals nothing itself');
      worker = await startWorker(env);
      await writeAndAwaitSealing(database.db, 2);
      assert.deepEqual(await auditTrail(database.db).verify(), { intact: true, rows: 30 });
    });
  });

  describe('on the embedded database', () => {
    let folder: { dataDir: string; remove(): Promise<void> };
    let server: ServerProcess | undefined;
    let db: Db | undefined;
    before(async () => {
      folder = await embeddedDataDir();
    });
    after(async () => {
      await db?.close();
      await server?.stop();
      await folder?.remove();
    });

    it('refuses --no-worker: no other process could send its e-mails or seal its trail', async () => {
      const refused = await serveRefused({ DATA_DIR: folder.dataDir, SEED_DEMO: '0', BACKUP_KEEP: '0' }, [
        '--no-worker',
      ]);
      assert.equal(refused.exit, '1');
      assert.match(refused.output, /--no-worker needs DATABASE_URL/);
    });

    it('seals the rows other processes write through the server', async () => {
      server = await startServerProcess({ DATA_DIR: folder.dataDir, SEED_DEMO: '0', BACKUP_KEEP: '0' });
      db = await openEmbedded(folder.dataDir);
      await writeAndAwaitSealing(db, 10);
      assert.deepEqual(await auditTrail(db).verify(), { intact: true, rows: 10 });
    });
  });
});
