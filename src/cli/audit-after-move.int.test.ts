import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { medora } from './main.ts';
import { auditLog } from '../db/audit.pg.ts';
import type { Db } from '../db/db.ts';
import { backupEmbedded, restoreEmbedded } from '../db/embedded/embedded.ts';
import { embeddedBackupSql } from '../db/embedded/embedded-dump.ts';
import { moveToPostgres } from '../db/embedded/move-to-postgres.ts';
import { openPglite } from '../db/embedded/pglite.ts';
import { backupPostgres, restorePostgres } from '../db/pg-tools.ts';
import { openPostgres, runOnConnection } from '../db/postgres.ts';
import { systemClock } from '../domain/shared/clock.ts';
import { asTrailOwner, sealAll } from '../testing/audit-sealing.ts';
import { makeTestApp } from '../testing/test-app.ts';
import { embeddedDataDir, testDatabases } from '../testing/test-db.ts';
import { present } from '../testing/assert.ts';

const serverUrl = process.env.TEST_DATABASE_URL;
const admin = { userId: 1, role: 'admin' as const, name: 'Ada' };
// A shared server's other databases may hold sealing back a while (see sealAll).
const SEAL_WITHIN_MS = 120_000;

const record = (db: Db, n: number) =>
  auditLog(db).record({ actor: admin, action: 'read_records', entity: 'patient', entityId: n, patientId: n });

/**
 * The trail a backup carries: three rows sealed, two written after the last seal, as a running clinic's has. Its
 * transaction ids are then moved an epoch on, as those of a cluster that has run 2^32 transactions more than the
 * one it is loaded into: any new cluster starts below an old one's ids, this makes sure it does.
 */
async function trailOfAnOlderCluster(db: Db): Promise<void> {
  for (const n of [1, 2, 3]) await record(db, n);
  await sealAll(db, SEAL_WITHIN_MS);
  for (const n of [4, 5]) await record(db, n);
  await asTrailOwner(
    db,
    `with moved as (update audit_log set tx = (tx::text::numeric + 4294967296)::text::xid8 where tx is not null returning 1)
     update audit_chain_head set sealed_tx = (sealed_tx::text::numeric + 4294967296)::text::xid8`,
  );
}

/** `medora audit verify` on `db`, as the command runs. */
async function verify(db: Db): Promise<{ code: number; stdout: string; stderr: string }> {
  const app = makeTestApp(db, { clock: systemClock });
  let [stdout, stderr] = ['', ''];
  const code = await medora(['audit', 'verify'], {
    getApp: async () => app,
    getDb: async () => db,
    io: {
      stdout: { write: (text) => (stdout += text) },
      stderr: { write: (text) => (stderr += text) },
      stdin: Readable.from(['']),
    },
  });
  return { code, stdout, stderr };
}

/** New audited writes on the loaded database: verify passes with them waiting, and again once they are sealed. */
async function newWritesVerify(db: Db): Promise<void> {
  for (const n of [6, 7]) await record(db, n);
  const waiting = await verify(db);
  assert.equal(waiting.code, 0, waiting.stderr);
  assert.match(waiting.stdout, /^OK: 3 audit rows, chain intact\.\nSealing: 4 rows wait, /);

  await sealAll(db, SEAL_WITHIN_MS);
  const sealed = await verify(db);
  assert.equal(sealed.code, 0, sealed.stderr);
  assert.match(sealed.stdout, /^OK: 7 audit rows, chain intact\.\nSealing: no row waits\.\n/);
  const chained = await db.query<{ patient_id: number }>(
    'select a.patient_id from audit_chain c join audit_log a on a.id = c.audit_id order by c.seq',
  );
  assert.deepEqual(
    chained.map((row) => row.patient_id),
    [1, 2, 3, 4, 5, 6, 7],
  );

  await record(db, 8);
  await sealAll(db, SEAL_WITHIN_MS);
  assert.match((await verify(db)).stdout, /^OK: 8 audit rows, chain intact\.\nSealing: no row waits\.\n/);
}

describe('the audit chain after a backup is loaded into another cluster', () => {
  let dir: string;
  let source: { dataDir: string; remove(): Promise<void> };
  let backup: Buffer;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'medora-audit-move-'));
    source = await embeddedDataDir();
    const db = await openPglite(source.dataDir);
    try {
      await trailOfAnOlderCluster(db);
    } finally {
      await db.close();
    }
    backup = await backupEmbedded(source.dataDir);
  });

  after(async () => {
    await source?.remove();
    await rm(dir, { recursive: true, force: true });
  });

  it('seals new rows after an embedded backup is restored into an empty DATA_DIR, and verify passes before and after', async () => {
    const file = join(dir, 'clinic.sql.gz');
    await writeFile(file, backup, { mode: 0o600 });
    const dataDir = join(dir, 'restored');
    await restoreEmbedded(dataDir, file, { force: false });
    const db = await openPglite(dataDir);
    try {
      await newWritesVerify(db);
    } finally {
      await db.close();
    }
  });

  it('seals new rows after medora move-to onto PostgreSQL, and verify passes before and after', {
    skip: !serverUrl && 'TEST_DATABASE_URL is not set',
  }, async () => {
    const name = `medora_audit_move_${randomBytes(4).toString('hex')}`;
    const server = present(serverUrl, 'TEST_DATABASE_URL');
    const url = new URL(server);
    url.pathname = `/${name}`;
    await runOnConnection(server, `create database ${name}`);
    try {
      const moved = await moveToPostgres(embeddedBackupSql(backup, 'the backup'), url.toString(), { force: false });
      assert.equal(moved.auditRows, 3);
      const db = await openPostgres(url.toString(), { max: 2 });
      try {
        await newWritesVerify(db);
      } finally {
        await db.close();
      }
    } finally {
      await runOnConnection(server, `drop database if exists ${name} with (force)`);
    }
  });

  it('seals new rows after a PostgreSQL backup is restored into another database, and verify passes before and after', {
    skip: !serverUrl && 'TEST_DATABASE_URL is not set',
  }, async () => {
    const postgres = present(
      testDatabases('both').find((target) => target.name === 'postgres'),
      'PostgreSQL target',
    );
    const [from, to] = [await postgres.open(), await postgres.open()];
    try {
      await trailOfAnOlderCluster(from.db);
      const file = join(dir, 'clinic.dump');
      await backupPostgres(present(from.url, 'source URL'), file);
      await restorePostgres(present(to.url, 'target URL'), file);
      const db = await openPostgres(present(to.url, 'target URL'), { max: 2 });
      try {
        await newWritesVerify(db);
      } finally {
        await db.close();
      }
    } finally {
      await from.drop();
      await to.drop();
    }
  });
});
