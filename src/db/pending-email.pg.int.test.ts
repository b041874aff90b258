import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { migrate } from './migrate.ts';
import type { Db } from './db.ts';
import { only } from '../testing/assert.ts';
import { testDatabases } from '../testing/test-db.ts';

/** A patient account as it stood before 0014, with who last set its address according to the audit trail. */
async function patientBefore(
  db: Db,
  email: string,
  setBy: { action: 'register' | 'email_changed'; role: string; from?: string },
  verified = false,
) {
  const user = only(
    await db.query<{ id: number }>(
      `insert into users (name, email, password_hash, role, email_verified_at) values ('P', $1, 'h', 'patient', $2) returning id`,
      [email, verified ? new Date() : null],
    ),
  );
  const patient = only(
    await db.query<{ id: number }>(`insert into patients (user_id, phone) values ($1, '1') returning id`, [user.id]),
  );
  await db.query(
    `insert into audit_log (actor_role, action, entity, entity_id, patient_id, details) values ($1, $2, 'user', $3, $4, $5)`,
    [
      setBy.role,
      setBy.action,
      String(user.id),
      patient.id,
      setBy.action === 'email_changed' ? { from: setBy.from ?? null, to: email } : {},
    ],
  );
  await db.query(`insert into sessions (user_id, token_hash, expires_at) values ($1, $2, now() + interval '1 day')`, [
    user.id,
    `session-of-${email}`,
  ]);
  return user.id;
}

// 0014's SQL does the same on either engine: on one, the server when TEST_DATABASE_URL is set, since booting PGlite
// costs seconds of CPU time.
for (const target of testDatabases('one')) {
  describe(`migration 0014 on ${target.name}`, () => {
    it('sets aside the unconfirmed addresses staff typed before it, giving back the address a change replaced', async () => {
      const { db, drop } = await target.open();
      try {
        // The schema as 0013 left it, with accounts made under it; then 0014 runs over them.
        await db.query('alter table users drop column pending_email');
        await db.query('delete from schema_migrations where version = 14');
        const own = await patientBefore(db, 'own@x.test', { action: 'register', role: 'patient' });
        const walkIn = await patientBefore(db, 'walk.in@x.test', { action: 'register', role: 'reception' });
        const changed = await patientBefore(db, 'typed.by.desk@x.test', {
          action: 'email_changed',
          role: 'reception',
          from: 'patient.before@x.test',
        });
        const confirmed = await patientBefore(
          db,
          'confirmed@x.test',
          { action: 'email_changed', role: 'admin', from: 'old@x.test' },
          true,
        );
        const resetSince = await patientBefore(db, 'reset.since@x.test', {
          action: 'email_changed',
          role: 'reception',
          from: 'before.reset@x.test',
        });
        await db.query(
          `insert into password_resets (user_id, token_hash, expires_at, used_at) values ($1, 'r', now() + interval '1 hour', now() + interval '1 second')`,
          [resetSince],
        );

        assert.deepEqual(await migrate(db), ['0014_email_verification.sql']);
        const rows = await db.query<{
          id: number;
          email: string | null;
          pending_email: string | null;
          open_sessions: number;
        }>(
          `select u.id, u.email, u.pending_email,
                  (select count(*)::int from sessions s where s.user_id = u.id and s.revoked_at is null) as open_sessions
           from users u where u.id = any($1) order by u.id`,
          [[own, walkIn, changed, confirmed, resetSince]],
        );
        assert.deepEqual(
          rows.map((r) => [r.email, r.pending_email, r.open_sessions]),
          [
            ['own@x.test', null, 1],
            [null, 'walk.in@x.test', 0],
            ['patient.before@x.test', 'typed.by.desk@x.test', 1],
            ['confirmed@x.test', null, 1],
            ['reset.since@x.test', null, 1],
          ],
        );
        await assert.rejects(db.query(`update users set pending_email = 'WALK.IN@x.test' where id = $1`, [own]), {
          code: '23505',
        });
      } finally {
        await drop();
      }
    });
  });
}
