/**
 * `TEST_DATABASE_URL=… node --import tsx scripts/bench/booking-burst.ts [--bookings 1000] [--max-wait 120]`: that many
 * patients each book a different slot at the same moment through two Medora instances on one fresh PostgreSQL
 * database (requests alternated between them, each instance with the default pool and timeouts). A client answered
 * 503 waits the answer's Retry-After and tries again, for at most --max-wait seconds in all. Run twice: with the
 * audit chain (a sealer running, as in `medora serve`) and on another fresh database without it (no sealer, and
 * rows unmarked for one, as scripts/bench/audit-chain.ts does). Each run reports the bookings made on the first try, in
 * all, how long until all were booked and the bookings per second; that every slot was booked exactly once is
 * checked in SQL.
 */
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { Command } from 'commander';
import { loadConfig } from '../../src/config.ts';
import { sealAuditContinuously } from '../../src/audit-sealer.ts';
import type { App } from '../../src/app.ts';
import type { Queryable } from '../../src/db/db.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { onlyRow } from '../../src/db/rows.ts';
import type { TrailCheck } from '../../src/domain/audit/use-cases.ts';
import { cliActor } from '../../src/domain/shared/actor.ts';
import { createMedoraServer } from '../../src/http/server.ts';
import { closeGracefully } from '../../src/http/shutdown.ts';
import { bearerTokens } from '../../src/security.ts';
import { PASSWORD, TEST_TZ, fixedClock, uniqueEmail } from '../../src/testing/http.ts';
import { makeTestApp } from '../../src/testing/test-app.ts';
import { at, present } from '../../src/testing/assert.ts';
import { testDatabases } from '../../src/testing/test-db.ts';
import { benchMachine } from './report.ts';

const NOW = '2026-06-10T08:10:00Z'; // a Wednesday morning in the test clinic's Europe/Berlin
const DATES = ['2026-06-11', '2026-06-12', '2026-06-15'];
const SLOTS_A_DAY = 16; // a new doctor's default week: Monday to Friday 09:00–17:00 in 30-minute slots

const opts = new Command()
  .option('--bookings <n>', 'patients booking at once', '1000')
  .option('--max-wait <seconds>', 'how long a client keeps retrying after 503s, in all', '120')
  .option('--output <file>', 'also write the figures there as JSON (bench/burst-results.json)')
  .parse()
  .opts<{ bookings: string; maxWait: string; output?: string }>();
const n = Number(opts.bookings);
const maxWaitMs = Number(opts.maxWait) * 1000;
const target = testDatabases('both').find((t) => t.name === 'postgres');
if (!target) throw new Error('set TEST_DATABASE_URL to a PostgreSQL server');
const { databasePoolSize, timeouts } = loadConfig({ ...process.env, CLINIC_TZ: TEST_TZ });

interface Burst {
  firstTry: number;
  booked: number;
  /** Answers other than 201 and 503, by status and code. */
  refused: Record<string, number>;
  retries: number;
  seconds: number;
  distinctSlots: number;
  doubleBooked: number;
  /** Read after the sealer caught up (with the chain only). */
  trail: TrailCheck;
}

/** One burst on a fresh database; `chained: false` runs no sealer and leaves rows unmarked for one. */
async function burst(chained: boolean): Promise<Burst> {
  const database = await present(target, 'PostgreSQL target').open();
  const url = present(database.url, 'database URL');
  const dbs = [
    database.db,
    await openPostgres(url, { max: databasePoolSize, timeouts }),
    await openPostgres(url, { max: databasePoolSize, timeouts }),
  ];
  const [setup, ...instanceDbs] = dbs as [(typeof dbs)[0], ...typeof dbs];
  const apps = instanceDbs.map((db) => makeTestApp(db, { clock: fixedClock(NOW) }));
  const servers = apps.map((app) => createMedoraServer(app, { log: () => {} }));
  const sealers = chained ? apps.map((app) => sealAuditContinuously(app.audit, (line) => console.error(line))) : [];
  try {
    // Without the chain nothing seals, and nothing marks a row for a sealer: no transaction id, no index to find it by.
    if (!chained) await setup.exec('drop index audit_log_tx_idx; alter table audit_log alter column tx drop default');
    const urls = await Promise.all(
      servers.map(
        (server) =>
          new Promise<string>((resolve) =>
            server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
          ),
      ),
    );
    const requests = await bookingRequests(at(apps, 0, 'app'), setup);
    const started = performance.now();
    const answers = await Promise.all(
      requests.map((r, i) => bookPatiently(at(urls, i % urls.length, 'url'), r.token, r.body)),
    );
    const seconds = (Math.max(...answers.map((a) => a.at)) - started) / 1000;
    const refused: Record<string, number> = {};
    for (const a of answers) if (a.last !== '201') refused[a.last] = (refused[a.last] ?? 0) + 1;
    const slots = onlyRow(
      await setup.query<{ booked: number; distinct_slots: number }>(
        `select count(*)::int as booked, count(distinct (doctor_id, date, start_time))::int as distinct_slots
         from appointments where status <> 'cancelled'`,
      ),
    );
    // The sealer's last batch is waited for (a few seconds at most) before the trail is read.
    const sealedBy = performance.now() + 5000;
    while (chained && (await at(apps, 0, 'app').audit.verifyTrail()).backlog.rows > 0 && performance.now() < sealedBy)
      await new Promise((resolve) => setTimeout(resolve, 50));
    return {
      firstTry: answers.filter((a) => a.tries === 1 && a.last === '201').length,
      booked: answers.filter((a) => a.last === '201').length,
      refused,
      retries: answers.reduce((sum, a) => sum + a.tries - 1, 0),
      seconds,
      distinctSlots: slots.distinct_slots,
      doubleBooked: slots.booked - slots.distinct_slots,
      trail: await at(apps, 0, 'app').audit.verifyTrail(),
    };
  } finally {
    await Promise.all(sealers.map((sealer) => sealer.stop()));
    await Promise.all(servers.map((server) => closeGracefully(server, 1000)));
    for (const db of instanceDbs) await db.close();
    await database.drop();
  }
}

/** Doctors enough for `n` free slots, `n` patients with a session each, and each patient's booking of a slot of their own. */
async function bookingRequests(app: App, db: Queryable) {
  const admin = cliActor('bench');
  const doctors = await Promise.all(
    Array.from({ length: Math.ceil(n / (SLOTS_A_DAY * DATES.length)) }, () =>
      app.doctors.createDoctor({ name: 'Dr. Bench', email: uniqueEmail('doctor'), password: PASSWORD }, admin),
    ),
  );
  const tokens = Array.from({ length: n }, () => bearerTokens.issue());
  const users = await db.query<{ id: number }>(
    `with u as (insert into users (name, email, password_hash, role)
                select 'Patient ' || i, i || '.' || $1, 'not used', 'patient' from generate_series(1, $2::int) i returning id)
     , p as (insert into patients (user_id) select id from u returning user_id) select user_id as id from p order by user_id`,
    [uniqueEmail('burst'), n],
  );
  await db.query(
    `insert into sessions (user_id, token_hash, expires_at) select * from unnest($1::int[], $2::text[], $3::timestamptz[])`,
    [users.map((u) => u.id), tokens.map(bearerTokens.digest), tokens.map(() => new Date(Date.parse(NOW) + 86_400_000))],
  );
  const scheduleOf = new Map<string, number[]>();
  for (const doctor of doctors) {
    const all = (await app.scheduling.getSchedule(doctor.id)).slots;
    for (const weekday of [1, 4, 5])
      scheduleOf.set(
        `${doctor.id}/${weekday}`,
        all.filter((s) => s.weekday === weekday).map((s) => s.id),
      );
  }
  return tokens.map((token, i) => {
    const doctor = at(doctors, i % doctors.length, 'doctor');
    const k = Math.floor(i / doctors.length);
    const date = at(DATES, Math.floor(k / SLOTS_A_DAY), 'date');
    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay() || 7;
    return {
      token,
      body: JSON.stringify({
        doctor_id: doctor.id,
        schedule_id: present(scheduleOf.get(`${doctor.id}/${weekday}`), 'schedule')[k % SLOTS_A_DAY],
        date,
      }),
    };
  });
}

/** A client that books, and on a 503 waits what Retry-After asks and books again, until maxWaitMs have passed. */
async function bookPatiently(
  url: string,
  token: string,
  body: string,
): Promise<{ tries: number; last: string; at: number }> {
  const giveUpAt = performance.now() + maxWaitMs;
  for (let tries = 1; ; tries++) {
    const res = await fetch(`${url}/api/appointments/book`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    const answer = (await res.json().catch(() => ({}))) as { code?: string };
    if (res.status !== 503)
      return { tries, last: res.status === 201 ? '201' : `${res.status} ${answer.code}`, at: performance.now() };
    const waitMs = Number(res.headers.get('retry-after') ?? 1) * 1000;
    if (performance.now() + waitMs > giveUpAt)
      return { tries, last: `503 ${answer.code} (gave up)`, at: performance.now() };
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

/** The trail in words: how much is sealed into the chain, how much waits and for how long, whether the chain holds. */
function describeTrail({ chain, backlog, stalled }: TrailCheck): string {
  const waiting =
    backlog.rows === 0
      ? 'no unsealed rows'
      : `${backlog.rows} unsealed rows, the oldest ${backlog.oldestAgeSeconds} s old${stalled ? ' (the sealer has stalled)' : ''}`;
  const ok = chain.intact
    ? 'the chain verifies'
    : `the chain is BROKEN at row ${chain.brokenAt ?? '?'}: ${chain.reason}`;
  return `${chain.rows} sealed rows, ${waiting}; ${ok}`;
}

const runs: Record<string, unknown>[] = [];
const startedAt = new Date().toISOString();
for (const chained of [true, false]) {
  const b = await burst(chained);
  runs.push({
    chain: chained,
    bookings: n,
    pool_per_instance: databasePoolSize,
    first_try: b.firstTry,
    booked: b.booked,
    retries: b.retries,
    seconds: Number(b.seconds.toFixed(2)),
    booked_per_second: Number((b.booked / b.seconds).toFixed(1)),
    distinct_slots: b.distinctSlots,
    double_booked: b.doubleBooked,
    refused: b.refused,
  });
  const refused = Object.entries(b.refused)
    .map(([answer, count]) => `${count} × ${answer}`)
    .join(', ');
  console.log(
    `${chained ? 'with the audit chain' : 'without the chain'}: ${n} simultaneous bookings over 2 instances (pool ${databasePoolSize} each): ` +
      `${b.firstTry} booked on the first try, ${b.booked} in all after ${b.retries} retries (${(b.booked / b.seconds).toFixed(1)} booked/s), ` +
      `the last answered ${b.seconds.toFixed(2)} s after the start${refused ? `; not booked: ${refused}` : ''}`,
  );
  const exact = b.booked === n && b.distinctSlots === n && b.doubleBooked === 0;
  console.log(
    `  in SQL: ${b.distinctSlots} distinct slots booked, ${b.doubleBooked} booked twice: ${exact ? 'each slot exactly once' : 'NOT each slot exactly once'}`,
  );
  // Without the chain no row is sealed: the trail has nothing to say about that run.
  if (chained) console.log(`  audit trail: ${describeTrail(b.trail)}`);
  if (!exact) process.exitCode = 1;
}
if (opts.output) {
  await writeFile(
    opts.output,
    `${JSON.stringify({ started_at: startedAt, instances: 2, machine: benchMachine(), runs }, null, 2)}\n`,
  );
  console.log(`figures written to ${opts.output}`);
}
