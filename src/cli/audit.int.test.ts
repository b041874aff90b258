import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { auditLog } from '../db/audit.pg.ts';
import { asTrailOwner, relink, sealAll } from '../testing/audit-sealing.ts';
import { openCliDatabase, type CliDatabase } from '../testing/cli.ts';
import { testDatabases } from '../testing/test-db.ts';

const admin = { userId: 1, role: 'admin' as const, name: 'Ada' };

for (const target of testDatabases('one')) {
  describe(`${target.name}: medora audit`, () => {
    let database: CliDatabase;
    const medora = (...args: string[]) => database.medora(args);
    const ids = async () =>
      (await database.db.query<{ id: number }>('select audit_id as id from audit_chain order by seq')).map((r) => r.id);

    before(async () => {
      database = await openCliDatabase(target);
      for (const n of [1, 2, 3, 4])
        await auditLog(database.db).record({
          actor: admin,
          action: 'read_records',
          entity: 'patient',
          entityId: n,
          patientId: n,
        });
      await sealAll(database.db);
    });
    after(() => database.drop());

    it('verifies an untouched trail, and again after pruning old anonymous failures', async () => {
      const clean = await medora('audit', 'verify');
      const noCheckpoints =
        'No checkpoints yet: medora serve signs one every hour with AUDIT_SIGNING_KEY_FILE set, or run medora audit checkpoint.';
      assert.deepEqual(clean, {
        code: 0,
        stdout: `OK: 4 audit rows, chain intact.\nSealing: no row waits.\n${noCheckpoints}\n`,
        stderr: '',
      });

      await database.db.query(
        `insert into audit_log (at, action, entity) values (now() - interval '91 days', 'login_failed', 'user'), (now(), 'login_failed', 'user')`,
      );
      const pruned = await medora('audit', 'prune');
      assert.deepEqual(pruned, {
        code: 0,
        stdout: 'Removed 1 anonymous failed sign-in(s) older than 90 days.\n',
        stderr: '',
      });
      assert.equal((await medora('audit', 'verify')).code, 0);
    });

    it('reports rows waiting to be sealed, and exits 1 once one has waited past the bound: no sealer is at work', async () => {
      await auditLog(database.db).record({ actor: admin, action: 'list', entity: 'patient' });
      const waiting = await medora('audit', 'verify');
      assert.equal(waiting.code, 0);
      assert.match(
        waiting.stdout,
        /^OK: 4 audit rows, chain intact\.\nSealing: 1 row waits, the oldest for \d+\.\d s\.\n/,
      );

      await database.db.query(
        `insert into audit_log (at, actor_user_id, action, entity) values (now() - interval '10 minutes', 1, 'list', 'bill')`,
      );
      const stalled = await medora('audit', 'verify');
      assert.equal(stalled.code, 1);
      assert.match(
        stalled.stderr,
        /^error: audit rows are not being sealed: 2 rows wait, the oldest for 6\d\d\.\d s \(more than 300 s\): no medora serve or medora worker is sealing them\n$/,
      );
      assert.equal((await medora('audit', 'verify', '--max-unsealed-age', '3600')).code, 0);
      await sealAll(database.db);
      assert.equal((await medora('audit', 'verify')).code, 0);
    });

    it('names a row a superuser changed, then the row after one removed, and exits 1', async () => {
      const [, second, third] = await ids();
      await asTrailOwner(database.db, `update audit_log set actor_user_id = 99 where id = $1`, [second]);
      const changed = await medora('audit', 'verify');
      assert.equal(changed.code, 1);
      assert.equal(
        changed.stderr,
        `error: audit trail broken at row ${second}: row ${second} was changed: its hash does not match its contents and the previous row's hash\n`,
      );

      await asTrailOwner(database.db, 'delete from audit_log where id = $1', [second]);
      const removed = await medora('audit', 'verify');
      assert.equal(removed.code, 1);
      assert.equal(removed.stderr, `error: audit trail broken at row ${second}: row ${second} (seq 2) was removed\n`);

      await asTrailOwner(database.db, (tx) => relink(tx, `select * from links where audit_id <> ${second}`));
      const unlinked = await medora('audit', 'verify');
      assert.equal(unlinked.code, 1);
      assert.equal(
        unlinked.stderr,
        `error: audit trail broken at row ${third}: 1 row(s) before row ${third} were removed (seq 2 to 2)\n`,
      );
    });

    it('is listed in the help', async () => {
      const help = await medora('--help');
      assert.match(help.stdout, /audit\s+the audit trail: its integrity and retention/);
      const audit = await medora('audit', '--help');
      assert.match(audit.stdout, /verify \[options\]\s+recompute the hash chain/);
      assert.match(audit.stdout, /prune\s+delete failed sign-ins that named no account/);
    });
  });
}
