import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App } from '../app.ts';
import { writeNewSigningKey } from '../audit-signing.ts';
import { loadConfig } from '../config.ts';
import { databaseRoleWarning, openRuntime } from '../runtime.ts';
import { spawnMedora } from '../testing/cli.ts';
import { only } from '../testing/assert.ts';
import { sealAll } from '../testing/audit-sealing.ts';
import { auditLog, auditTrail } from './audit.pg.ts';
import { openPostgres, runOnConnection } from './postgres.ts';
import type { Db } from './db.ts';
import { readMigrations } from './migrate.ts';

const serverUrl = process.env.TEST_DATABASE_URL;
const admin = { userId: 1, role: 'admin' as const, name: 'Ada' };

describe('an owner that migrates and an application role of its own, on PostgreSQL', {
  skip: !serverUrl && 'needs a PostgreSQL server',
}, () => {
  const suffix = randomBytes(4).toString('hex');
  const [owner, appRole, otherRole] = [`medora_owner_${suffix}`, `medora_app_${suffix}`, `medora_other_${suffix}`];
  const [database, empty] = [`medora_roles_${suffix}`, `medora_roles_empty_${suffix}`];
  const onServer = (sql: string) => runOnConnection(serverUrl ?? '', sql);
  /** The URL of `role` on `db`, without a password (the test server trusts local connections). */
  const urlOf = (role: string, db = database) => {
    const url = new URL(serverUrl ?? '');
    url.username = role;
    url.password = '';
    url.pathname = `/${db}`;
    return url.toString();
  };
  const env = { CLINIC_TZ: 'Europe/Berlin', DATABASE_POOL_SIZE: '2' };
  let folder: string;
  let keyFile: string;
  let app: (App & { db: Db }) | undefined;
  const closing: Db[] = [];

  before(async () => {
    for (const role of [owner, appRole, otherRole]) await onServer(`create role ${role} login`);
    await onServer(`create database ${database} owner ${owner}`);
    await onServer(`create database ${empty} owner ${owner}`);
    folder = await mkdtemp(join(tmpdir(), 'medora-roles-'));
    keyFile = join(folder, 'audit-signing.pem');
    await writeNewSigningKey(keyFile);
  });
  after(async () => {
    await app?.db.close();
    await Promise.all(closing.map((db) => db.close()));
    for (const db of [database, empty]) await onServer(`drop database if exists ${db} with (force)`);
    for (const role of [owner, appRole, otherRole]) await onServer(`drop role if exists ${role}`);
    await rm(folder, { recursive: true, force: true });
  });

  const appDb = () => {
    assert.ok(app, 'the runtime of the first test');
    return app;
  };

  it('migrates as the owner; the application role audits, signs, prunes and verifies', async () => {
    const config = loadConfig({
      ...env,
      DATABASE_URL: urlOf(appRole),
      DATABASE_OWNER_URL: urlOf(owner),
      AUDIT_SIGNING_KEY_FILE: keyFile,
    });
    const runtime = await openRuntime(config);
    app = { ...runtime.app, db: runtime.db };
    assert.equal(runtime.applied.length, readMigrations().length);
    assert.equal(await databaseRoleWarning(app.db, config), undefined);
    const who = only(
      await app.db.query<{ user: string; owner: string }>(
        `select current_user as "user", pg_get_userbyid(relowner) as owner from pg_class where oid = 'audit_log'::regclass`,
      ),
    );
    assert.deepEqual(who, { user: appRole, owner });

    await app.catalogue.createDepartment({ name: 'Cardiology', description: 'Hearts' }, admin);
    await auditLog(app.db).record({
      actor: admin,
      action: 'read_records',
      entity: 'patient',
      entityId: 1,
      patientId: 1,
    });
    await app.db.query(
      `insert into audit_log (at, action, entity) values (now() - interval '100 days', 'login_failed', 'user')`,
    );
    assert.deepEqual(await app.audit.pruneAnonymousFailures(), { removed: 1, olderThanDays: 90 });
    await sealAll(app.db);
    const signed = await app.auditCheckpoints.signCheckpoint({ onlyIfMoved: false });
    assert.equal(signed.signed?.seq, 2);
    assert.deepEqual((await app.audit.verifyTrail()).chain, { intact: true, rows: 2 });
    const report = await app.auditCheckpoints.verifyCheckpoints();
    assert.deepEqual({ checked: report.checked, problems: report.problems }, { checked: 1, problems: [] });
  });

  it('leaves the application role unable to alter the triggers, the chain, its head, its rows or the checkpoints', async () => {
    const { db } = appDb();
    for (const sql of [
      'alter table audit_log disable trigger audit_log_append_only',
      'drop trigger audit_chain_batches_append_only on audit_chain_batches',
      'alter table audit_log drop constraint audit_log_new_rows_unchained',
      'alter function audit_seal(integer) security invoker',
      'update audit_chain_head set seq = seq - 1',
      `insert into audit_chain_batches (first_seq, audit_ids, hashes) values (99, '{1}', sha256('forged'))`,
      'delete from audit_chain_batches',
      'update audit_chain_head set sealed_id = 0',
      'delete from audit_log',
      `update audit_log set details = '{}'`,
      'truncate audit_log',
      'delete from audit_checkpoints',
      'update audit_checkpoints set seq = 1',
      `insert into schema_migrations (version, name) values (9999, 'forged.sql')`,
    ]) {
      await assert.rejects(db.query(sql), { code: '42501' }, sql);
    }
    // A temporary table named like the head is not what the sealer reads and moves: its search path is pinned. (The
    // temporary head hides the real one from this connection's own reads too, so the seal is counted, not the backlog;
    // another database's transaction on the shared server can hold sealing back a moment.)
    await auditLog(db).record({ actor: admin, action: 'list', entity: 'patient' });
    await db.transaction(async (tx) => {
      await tx.exec(
        `create temporary table audit_chain_head on commit drop as select true as one_row, 0::bigint as seq, '\\x00'::bytea as hash, '0'::xid8 as sealed_tx, 0::bigint as sealed_id`,
      );
      const deadline = Date.now() + 30_000;
      while ((await auditTrail(tx).seal(1000)) !== 1) {
        if (Date.now() > deadline) throw new Error('the row was not sealed within 30 s');
        await sleep(20);
      }
    });
    assert.deepEqual((await appDb().audit.verifyTrail()).chain, { intact: true, rows: 3 });
  });

  it("warns when the server runs as the tables' owner, not on the embedded database", async () => {
    const ownerDb = await openPostgres(urlOf(owner), { max: 1 });
    closing.push(ownerDb);
    const warning = await databaseRoleWarning(ownerDb, { databaseUrl: urlOf(owner) });
    assert.match(
      warning ?? '',
      new RegExp(
        `^warning: Medora runs as the PostgreSQL role "${owner}", which owns its tables \\(or is a superuser\\): it could disable the audit trail's triggers`,
      ),
    );
    assert.equal(await databaseRoleWarning(ownerDb, { databaseUrl: undefined }), undefined);
  });

  it('refuses to migrate as the application role, naming DATABASE_OWNER_URL', async () => {
    await assert.rejects(openRuntime(loadConfig({ ...env, DATABASE_URL: urlOf(appRole, empty) })), (error: unknown) =>
      /DATABASE_URL's role may not migrate the database \(permission denied for schema public\): set DATABASE_OWNER_URL/.test(
        (error as Error).message,
      ),
    );
  });

  it('grants another role by command as the owner, and refuses to grant the owner itself', async () => {
    const granted = await spawnMedora(['db', 'grant-app-role', otherRole], { env: { DATABASE_URL: urlOf(owner) } });
    assert.deepEqual(granted, {
      code: 0,
      stdout: `Role "${otherRole}" may now use Medora's tables; the audit trail it may only add to and read.\n`,
      stderr: '',
    });
    const may = only(
      await appDb().db.query<Record<string, boolean>>(
        `select has_table_privilege($1, 'audit_log', 'insert') as insert_audit, has_table_privilege($1, 'audit_log', 'delete') as delete_audit,
                has_table_privilege($1, 'audit_chain_head', 'update') as move_head, has_table_privilege($1, 'audit_chain_batches', 'insert') as link, has_table_privilege($1, 'users', 'update') as update_users`,
        [otherRole],
      ),
    );
    assert.deepEqual(may, {
      insert_audit: true,
      delete_audit: false,
      move_head: false,
      link: false,
      update_users: true,
    });

    const refused = await spawnMedora(['db', 'grant-app-role', owner], { env: { DATABASE_URL: urlOf(owner) } });
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      `error: role "${owner}" owns Medora's tables or is a superuser: the application role must be another one\n`,
    );
  });
});
