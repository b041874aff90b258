/**
 * `TEST_DATABASE_URL=… node --import tsx scripts/bench/booking-burst.ts [--bookings 1000]`: that many patients each
 * book a different slot at the same moment through the HTTP API of one server on a fresh PostgreSQL database;
 * prints the answers by status and how long the burst took. Every booking writes an audit row.
 */
import { Command } from 'commander';
import { cliActor } from '../../src/domain/shared/actor.ts';
import { bearerTokens } from '../../src/security.ts';
import { PASSWORD, fixedClock, startTestServer, uniqueEmail } from '../../src/testing/http.ts';
import { testDatabases } from '../../src/testing/test-db.ts';

const NOW = '2026-06-10T08:10:00Z'; // a Wednesday morning in the test clinic's Europe/Berlin
const DATES = ['2026-06-11', '2026-06-12', '2026-06-15'];
const SLOTS_A_DAY = 16; // a new doctor's default week: Monday to Friday 09:00–17:00 in 30-minute slots

const { bookings } = new Command().option('--bookings <n>', 'patients booking at once', '1000').parse().opts<{ bookings: string }>();
const n = Number(bookings);
const target = testDatabases().find((t) => t.name === 'postgres');
if (!target) throw new Error('set TEST_DATABASE_URL to a PostgreSQL server');
const server = await startTestServer(target, { clock: fixedClock(NOW) });
try {
  const admin = cliActor('bench');
  const doctors = await Promise.all(
    Array.from({ length: Math.ceil(n / (SLOTS_A_DAY * DATES.length)) }, () =>
      server.app.doctors.createDoctor({ name: 'Dr. Bench', email: uniqueEmail('doctor'), password: PASSWORD }, admin),
    ),
  );
  const tokens = Array.from({ length: n }, () => bearerTokens.issue());
  const users = await server.db.query<{ id: number }>(
    `with u as (insert into users (name, email, password_hash, role)
                select 'Patient ' || i, i || '.' || $1, 'not used', 'patient' from generate_series(1, $2::int) i returning id)
     , p as (insert into patients (user_id) select id from u returning user_id) select user_id as id from p order by user_id`,
    [uniqueEmail('burst'), n],
  );
  await server.db.query(
    `insert into sessions (user_id, token_hash, expires_at) select * from unnest($1::int[], $2::text[], $3::timestamptz[])`,
    [users.map((u) => u.id), tokens.map(bearerTokens.digest), tokens.map(() => new Date(Date.parse(NOW) + 86_400_000))],
  );
  const requests = tokens.map((token, i) => {
    const doctor = doctors[i % doctors.length]!;
    const k = Math.floor(i / doctors.length);
    const date = DATES[Math.floor(k / SLOTS_A_DAY)]!;
    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay() || 7;
    return { token, doctor, date, weekday, k: k % SLOTS_A_DAY };
  });
  const scheduleOf = new Map<string, number[]>();
  for (const doctor of doctors) {
    const all = (await server.app.scheduling.getSchedule(doctor.id)).slots;
    for (const weekday of [1, 4, 5]) scheduleOf.set(`${doctor.id}/${weekday}`, all.filter((s) => s.weekday === weekday).map((s) => s.id));
  }
  const started = performance.now();
  const statuses = await Promise.all(
    requests.map(async (r) => {
      const res = await server.api('POST', '/api/appointments/book', {
        token: r.token,
        body: { doctor_id: r.doctor.id, schedule_id: scheduleOf.get(`${r.doctor.id}/${r.weekday}`)![r.k], date: r.date },
      });
      return res.status === 201 ? '201' : `${res.status} ${res.body?.code}`;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const counts = statuses.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
  console.log(`${n} concurrent bookings in ${seconds.toFixed(2)} s: ${JSON.stringify(counts)}`);
  console.log(`audit trail: ${JSON.stringify(await server.app.audit.verifyTrail())}`);
} finally {
  await server.close();
}
