import { after, before, describe, it } from '../testing/node-test.ts';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { openPostgres } from '../db/postgres.ts';
import { DEFAULT_TIMEOUTS } from '../db/timeouts.ts';
import { systemClock } from '../domain/shared/clock.ts';
import { only, present } from '../testing/assert.ts';
import { startTestServer, signUpAdmin, type TestServer } from '../testing/http.ts';
import { clinicFixtures } from '../testing/records-fixtures.ts';
import { makeTestApp } from '../testing/test-app.ts';
import { testDatabases } from '../testing/test-db.ts';

const WAIT_SEEN_WITHIN_MS = 60_000;

/** A Monday at least two weeks ahead: the fixtures' doctor works Mondays, and no visit of it has started. */
function aMondayAhead(): string {
  const day = new Date(Date.now() + 14 * 86_400_000);
  day.setUTCDate(day.getUTCDate() + ((8 - day.getUTCDay()) % 7));
  return day.toISOString().slice(0, 10);
}

for (const target of testDatabases('both').filter((t) => t.name === 'postgres')) {
  describe('postgres: a deadlock or a serialization failure', () => {
    let server: TestServer;
    let fixtures: ReturnType<typeof clinicFixtures>;
    let admin: { token: string; user: { id: number; name: string } };

    before(async () => {
      server = await startTestServer(target);
      fixtures = clinicFixtures(server);
      admin = await signUpAdmin(server);
      // Every update of an appointment counts its attempt (a sequence is not rolled back with its transaction) and
      // fails as a deadlock would while `deadlocks` says so: 'always', or 'first' for the first attempt alone.
      await server.db.exec(
        `create sequence attempts;
         create table forced (deadlocks text not null);
         insert into forced values ('never');
         create function force_deadlock() returns trigger language plpgsql as $$
         declare n bigint := nextval('attempts');
         begin
           if (select deadlocks from forced) = 'always' or ((select deadlocks from forced) = 'first' and n = 1) then
             raise exception 'forced deadlock' using errcode = '40P01';
           end if;
           return new;
         end $$;
         create trigger force_deadlock before update on appointments for each row execute function force_deadlock()`,
      );
    });
    after(() => server?.close());

    const forceDeadlocks = async (when: 'always' | 'first' | 'never') => {
      await server.db.exec(`update forced set deadlocks = '${when}'; alter sequence attempts restart`);
    };
    const attempts = async () =>
      only(
        await server.db.query<{ n: number }>(
          `select case when is_called then last_value else 0 end::int as n from attempts`,
        ),
      ).n;
    const anAppointment = async () => {
      const [doctor, patient] = [await fixtures.doctor(), await fixtures.patient()];
      return fixtures.appointment({ doctor, patientId: patient.patientId, date: aMondayAhead(), start: '09:00' });
    };

    it('is run once more: a cancel whose first run deadlocks is cancelled by its second', async () => {
      const id = await anAppointment();
      await forceDeadlocks('first');
      const cancelled = await server.api('POST', `/api/admin/appointments/${id}/cancel`, { token: admin.token });
      assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
      assert.equal(await attempts(), 2);
      assert.equal(await fixtures.appointmentStatus(id), 'cancelled');
      await forceDeadlocks('never');
    });

    it('is answered 503 with Retry-After, never 500, when the second run deadlocks too', async () => {
      const id = await anAppointment();
      await forceDeadlocks('always');
      const refused = await server.api('POST', `/api/admin/appointments/${id}/cancel`, { token: admin.token });
      const runs = await attempts();
      await forceDeadlocks('never');
      assert.equal(refused.status, 503, JSON.stringify(refused.body));
      assert.equal(refused.body.code, 'database_conflict');
      assert.equal(refused.headers.get('retry-after'), '2');
      assert.equal(runs, 2, 'run twice, not more');
      assert.equal(await fixtures.appointmentStatus(id), 'scheduled');
    });

    it("lets a cancel wait for its doctor's row before it locks the appointment, as a booking locks the doctor first", async () => {
      const id = await anAppointment();
      const doctorId = only(
        await server.db.query<{ doctor_id: number }>('select doctor_id from appointments where id = $1', [id]),
      ).doctor_id;
      // The app over a pool of its own that waits as long as the test does for a lock: what counts is the order.
      const waiting = await openPostgres(present(server.databaseUrl, 'the database URL'), {
        max: 2,
        timeouts: { ...DEFAULT_TIMEOUTS, lockMs: WAIT_SEEN_WITHIN_MS, statementMs: WAIT_SEEN_WITHIN_MS },
      });
      const app = makeTestApp(waiting, { clock: systemClock });
      const [holder, prober] = [
        new pg.Client({ connectionString: server.databaseUrl }),
        new pg.Client({ connectionString: server.databaseUrl }),
      ];
      await holder.connect();
      await prober.connect();
      try {
        await holder.query('begin');
        await holder.query('select id from doctors where id = $1 for no key update', [doctorId]);
        const cancelling = app.scheduling.cancelAppointment(id, {
          userId: admin.user.id,
          role: 'admin',
          name: admin.user.name,
        });
        cancelling.catch(() => {});
        const deadline = Date.now() + WAIT_SEEN_WITHIN_MS;
        for (;;) {
          const { rows } = await prober.query(
            `select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid where not l.granted and a.datname = current_database()`,
          );
          if (rows[0].n > 0) break;
          if (Date.now() > deadline) throw new Error('the cancel never waited for the doctor');
          await sleep(20);
        }
        // While the cancel waits for the doctor, the appointment is free: a booking holding the doctor and waiting
        // on the appointment's slot would not close a circle.
        await prober.query('begin');
        await prober.query('select id from appointments where id = $1 for update nowait', [id]);
        await prober.query('rollback');
        await holder.query('commit');
        assert.equal((await cancelling).status, 'cancelled');
      } finally {
        await holder.end();
        await prober.end();
        await waiting.close();
      }
    });
  });
}
