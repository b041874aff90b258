import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { AuditEntry } from '../domain/audit/audit.ts';
import { auditLog, auditTrail } from './audit.pg.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import type { Db } from './db.ts';
import { migrate, readMigrations } from './migrate.ts';
import { testDatabases, type OpenedTestDatabase } from '../testing/test-db.ts';

const admin = { userId: 1, role: 'admin' as const, name: 'Ada' };
const read = (n: number): AuditEntry => ({ actor: admin, action: 'read_records', entity: 'patient', entityId: n, patientId: n, details: { n } });
const anonymousFailure: AuditEntry = { actor: null, action: 'login_failed', entity: 'user', details: { ip: '203.0.113.9' } };
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

/** Runs `sql` with the append-only trigger off, as a superuser could. */
async function asSuperuser(db: Db, sql: string, params: unknown[] = []): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.exec('alter table audit_log disable trigger audit_log_append_only');
    await tx.query(sql, params);
    await tx.exec('alter table audit_log enable trigger audit_log_append_only');
  });
}

const idsOf = async (db: Db) => (await db.query<{ id: number }>('select id from audit_log where seq is not null order by seq')).map((r) => r.id);

for (const target of testDatabases()) {
  describe(`${target.name}: the audit trail's chain`, () => {
    let database: OpenedTestDatabase;
    let db: Db;
    before(async () => {
      database = await target.open();
      db = database.db;
      for (let n = 1; n <= 5; n++) await auditLog(db).record(read(n));
    });
    after(() => database.drop());

    it('chains every row and verifies an untouched trail', async () => {
      assert.deepEqual(await auditTrail(db).verify(), { intact: true, rows: 5 });
      const rows = await db.query<{ seq: number }>('select seq from audit_log order by seq');
      assert.deepEqual(rows.map((r) => r.seq), [1, 2, 3, 4, 5]);
    });

    it('refuses UPDATE, DELETE and TRUNCATE', async () => {
      const [first] = await idsOf(db);
      await assert.rejects(db.query(`update audit_log set action = 'nothing' where id = $1`, [first]), { code: '42501', message: /append-only: UPDATE refused/ });
      await assert.rejects(db.query('delete from audit_log where id = $1', [first]), { code: '42501', message: /append-only: DELETE refused/ });
      await assert.rejects(db.exec('truncate audit_log'), { code: '42501' });
      await assert.rejects(db.query(`update audit_log set seq = 99, hash = '\\x00' where id = $1`, [first]), { code: '42501' });
      await auditLog(db).record(anonymousFailure);
      // The chain's own update, which sets seq and hash once, cannot pull an anonymous failure into the chain.
      await assert.rejects(db.query(`update audit_log set seq = 6, hash = '\\x00' where seq is null`), { code: '42501' });
      assert.deepEqual(await auditTrail(db).verify(), { intact: true, rows: 5 });
    });

    it('names a row a superuser changed, and passes once it is put back', async () => {
      const third = (await idsOf(db))[2];
      await asSuperuser(db, `update audit_log set details = '{"n": 33}' where id = $1`, [third]);
      const check = await auditTrail(db).verify();
      assert.equal(check.intact, false);
      assert.equal(!check.intact && check.brokenAt, third);
      assert.match(!check.intact ? check.reason : '', /was changed/);
      await asSuperuser(db, `update audit_log set details = '{"n": 3}' where id = $1`, [third]);
      assert.deepEqual(await auditTrail(db).verify(), { intact: true, rows: 5 });
    });

    it('names the row after one a superuser removed, and notices rows removed from the end', async () => {
      const [, second, third] = await idsOf(db);
      await asSuperuser(db, 'delete from audit_log where id = $1', [second]);
      const gap = await auditTrail(db).verify();
      assert.deepEqual(gap, { intact: false, rows: 4, brokenAt: third, reason: `1 row(s) before row ${third} were removed (seq 2 to 2)` });

      const tail = await target.open();
      try {
        for (let n = 1; n <= 3; n++) await auditLog(tail.db).record(read(n));
        const last = (await idsOf(tail.db))[2];
        await asSuperuser(tail.db, 'delete from audit_log where id = $1', [last]);
        const check = await auditTrail(tail.db).verify();
        assert.equal(check.intact, false);
        assert.match(!check.intact ? check.reason : '', /1 row\(s\) after the last one were removed \(seq 3 to 3\)/);
      } finally {
        await tail.drop();
      }
    });

    it('notices a row slipped into the chain or dressed as an anonymous failure', async () => {
      const forged = await target.open();
      try {
        for (let n = 1; n <= 3; n++) await auditLog(forged.db).record(read(n));
        await forged.db.transaction(async (tx) => {
          await tx.exec('alter table audit_log disable trigger audit_log_unchained, disable trigger audit_log_chain');
          await tx.query(`insert into audit_log (action, entity, seq, hash) values ('create', 'billing', 4, '\\x00')`);
          await tx.query(`insert into audit_log (actor_user_id, action, entity) values (7, 'read_records', 'patient')`);
          await tx.exec('alter table audit_log enable trigger audit_log_unchained, enable trigger audit_log_chain');
        });
        const check = await auditTrail(forged.db).verify();
        assert.equal(check.intact, false);
        assert.match(!check.intact ? check.reason : '', /was changed|does not match the chain head/);
      } finally {
        await forged.drop();
      }
    });

    it('prunes only anonymous failed sign-ins older than the bound, and the chain still verifies', async () => {
      const fresh = await target.open();
      try {
        const log = auditLog(fresh.db);
        await log.record(read(1));
        await log.record(anonymousFailure);
        await log.record({ ...anonymousFailure, entityId: 42, details: { email: 'pat@example.test' } });
        await log.record(read(2));
        // Written long ago: `at` is the insert's own (the chain covers it like any column).
        await fresh.db.query(
          `insert into audit_log (at, actor_user_id, action, entity, entity_id) values
             ($1, null, 'login_failed', 'user', null), ($1, null, 'login_failed', 'user', null),
             ($1, null, 'login_failed', 'user', '42'), ($1, 3, 'read_records', 'patient', '9')`,
          [daysAgo(100)],
        );
        assert.equal(await auditTrail(fresh.db).pruneAnonymous(daysAgo(90)), 2);
        const left = await fresh.db.query<{ action: string; entity_id: string | null; old: boolean }>(
          `select action, entity_id, at < now() - interval '90 days' as old from audit_log order by id`,
        );
        assert.deepEqual(
          left.map((r) => [r.action, r.entity_id, r.old]),
          [
            ['read_records', '1', false],
            ['login_failed', null, false],
            ['login_failed', '42', false],
            ['read_records', '2', false],
            ['login_failed', '42', true],
            ['read_records', '9', true],
          ],
        );
        assert.deepEqual(await auditTrail(fresh.db).verify(), { intact: true, rows: 5 });
      } finally {
        await fresh.drop();
      }
    });

    it('forms one chain from concurrent writers on separate connections, in the order they commit', { skip: target.name !== 'postgres' && 'needs a PostgreSQL server' }, async () => {
      const concurrent = await target.open();
      const second = await openPostgres(concurrent.url!);
      try {
        await Promise.all(
          Array.from({ length: 60 }, (_, n) => (n % 2 ? concurrent.db : second).transaction((tx) => auditLog(tx).record(read(n + 1)))),
        );
        assert.deepEqual(await auditTrail(concurrent.db).verify(), { intact: true, rows: 60 });

        // A transaction still at work after writing its row holds nobody up: rows join the chain as they commit.
        let release = () => {};
        const held = new Promise<void>((resolve) => (release = resolve));
        let written = () => {};
        const inserted = new Promise<void>((resolve) => (written = resolve));
        const slow = concurrent.db.transaction(async (tx) => {
          await auditLog(tx).record(read(61));
          written();
          await held;
        });
        await inserted;
        await second.transaction((tx) => auditLog(tx).record(read(62)));
        release();
        await slow;
        const order = await concurrent.db.query<{ entity_id: string }>('select entity_id from audit_log where seq > 60 order by seq');
        assert.deepEqual(order.map((r) => r.entity_id), ['62', '61']);
        assert.deepEqual(await auditTrail(concurrent.db).verify(), { intact: true, rows: 62 });
      } finally {
        await second.close();
        await concurrent.drop();
      }
    });
  });
}

describe('the chain migration', () => {
  it('chains the rows written before it, leaving anonymous failures out', async () => {
    const db = await openPglite(undefined);
    try {
      const migrations = readMigrations();
      await migrate(db, migrations.filter((m) => m.version < 8));
      await db.query(
        `insert into audit_log (at, actor_user_id, actor_role, action, entity, entity_id, details) values
           (now() - interval '2 days', 1, 'admin', 'create', 'department', '1', '{"b": 1, "a": [1, "x"]}'),
           (now() - interval '1 day', null, null, 'login_failed', 'user', null, '{"ip": "203.0.113.1"}'),
           (now(), 2, 'patient', 'book', 'appointment', '5', null)`,
      );
      await migrate(db, migrations);
      assert.deepEqual(await auditTrail(db).verify(), { intact: true, rows: 2 });
      await auditLog(db).record(read(1));
      assert.deepEqual(await auditTrail(db).verify(), { intact: true, rows: 3 });
    } finally {
      await db.close();
    }
  });
});
