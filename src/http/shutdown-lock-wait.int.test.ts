import { describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { systemClock } from '../domain/shared/clock.ts';
import { only, present } from '../testing/assert.ts';
import { openPostgres } from '../db/postgres.ts';
import { DEFAULT_TIMEOUTS } from '../db/timeouts.ts';
import { PASSWORD, uniqueEmail } from '../testing/http.ts';
import { makeTestApp } from '../testing/test-app.ts';
import { testDatabases } from '../testing/test-db.ts';
import { createMedoraServer } from './server.ts';
import { closeGracefully } from './shutdown.ts';

const WAIT_SEEN_WITHIN_MS = 60_000;

for (const target of testDatabases('both').filter((t) => t.name === 'postgres')) {
  describe('postgres: shutting down while a request waits for a lock', () => {
    it('answers it 503 shutting_down with Retry-After, not a connection reset, and nothing of it commits', async () => {
      const database = await target.open();
      // The app over a pool of its own that waits for a lock as long as the test waits: only the shutdown ends the
      // cancel's wait, however slow the machine, never its lock timeout first.
      const waiting = await openPostgres(present(database.url, 'the database URL'), {
        max: 2,
        timeouts: { ...DEFAULT_TIMEOUTS, lockMs: WAIT_SEEN_WITHIN_MS, statementMs: WAIT_SEEN_WITHIN_MS },
      });
      const app = makeTestApp(waiting, { clock: systemClock });
      const server = createMedoraServer(app, { log: () => {} });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const holder = new pg.Client({ connectionString: database.url });
      let closing: Promise<void> | undefined;
      try {
        const email = uniqueEmail('admin');
        await app.auth.createAdmin({ name: 'Ada Admin', email, password: PASSWORD });
        const login = await fetch(`${url}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: PASSWORD }),
        });
        const { token } = (await login.json()) as { token: string };
        const { appointment, doctor } = only(
          await database.db.query<{ appointment: number; doctor: number }>(
            `with du as (insert into users (name, email, password_hash, role) values ('Dr Lock', $1, 'x', 'doctor') returning id),
                  d as (insert into doctors (user_id) select id from du returning id),
                  s as (insert into schedules (doctor_id, weekday, start_time, end_time) select id, 1, '09:00', '09:30' from d returning id, doctor_id),
                  pu as (insert into users (name, password_hash, role) values ('Pia Patient', 'x', 'patient') returning id),
                  p as (insert into patients (user_id) select id from pu returning id),
                  a as (insert into appointments (patient_id, doctor_id, schedule_id, date, start_time, end_time)
                        select p.id, s.doctor_id, s.id, '2030-01-07', '09:00', '09:30' from p, s returning id, doctor_id)
             select id as appointment, doctor_id as doctor from a`,
            [uniqueEmail('doctor')],
          ),
        );

        // The doctor's row held elsewhere: the cancel waits for it.
        await holder.connect();
        await holder.query('begin');
        await holder.query('select id from doctors where id = $1 for no key update', [doctor]);
        const cancelling = fetch(`${url}/api/admin/appointments/${appointment}/cancel`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
        });
        cancelling.catch(() => {});
        const deadline = Date.now() + WAIT_SEEN_WITHIN_MS;
        for (;;) {
          const { rows } = await holder.query(
            `select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid where not l.granted and a.datname = current_database()`,
          );
          if (rows[0].n > 0) break;
          if (Date.now() > deadline) throw new Error('the cancel never waited for the lock');
          await sleep(20);
        }
        closing = closeGracefully(server, 100);
        const answer = await cancelling;
        assert.equal(answer.status, 503);
        assert.equal(answer.headers.get('retry-after'), '2');
        assert.deepEqual(await answer.json(), {
          message: 'Medora is restarting. Please try again in a moment.',
          code: 'shutting_down',
        });
        await holder.query('rollback');
        const { status } = only(
          await holder
            .query<{ status: string }>('select status from appointments where id = $1', [appointment])
            .then((r) => r.rows),
        );
        assert.equal(status, 'scheduled');
      } finally {
        await holder.end().catch(() => {});
        await (closing ?? closeGracefully(server, 100));
        await waiting.close();
        await database.drop();
      }
    });
  });
}
