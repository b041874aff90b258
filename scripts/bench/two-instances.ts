/**
 * What booking-burst.ts and cancel-book-soak.ts share: two in-process Medora instances on one fresh PostgreSQL
 * database (TEST_DATABASE_URL), each with the default pool and timeouts and a fixed clinic clock; doctors with their
 * default week, patients and staff signed in by SQL; and the checks read at the end (slots booked twice, the trail).
 */
import type { AddressInfo } from 'node:net';
import { sealAuditContinuously } from '../../src/audit-sealer.ts';
import type { App } from '../../src/app.ts';
import { CLI_STATEMENT_TIMEOUT_MS, loadConfig } from '../../src/config.ts';
import type { Db, Queryable } from '../../src/db/db.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { onlyRow } from '../../src/db/rows.ts';
import type { TrailCheck } from '../../src/domain/audit/use-cases.ts';
import { cliActor } from '../../src/domain/shared/actor.ts';
import { createMedoraServer } from '../../src/http/server.ts';
import { closeGracefully } from '../../src/http/shutdown.ts';
import { bearerTokens } from '../../src/security.ts';
import { present } from '../../src/testing/assert.ts';
import { PASSWORD, TEST_TZ, fixedClock, uniqueEmail } from '../../src/testing/http.ts';
import { makeTestApp } from '../../src/testing/test-app.ts';
import { testDatabases } from '../../src/testing/test-db.ts';

export const NOW = '2026-06-10T08:10:00Z'; // a Wednesday morning in the test clinic's Europe/Berlin
export const DATES = ['2026-06-11', '2026-06-12', '2026-06-15'];
export const SLOTS_A_DAY = 16; // a new doctor's default week: Monday to Friday 09:00–17:00 in 30-minute slots

export const { databasePoolSize, timeouts } = loadConfig({ ...process.env, CLINIC_TZ: TEST_TZ });

export interface TwoInstances {
  /** A connection of the bench's own, for setting up and checking in SQL. */
  setup: Db;
  apps: App[];
  urls: string[];
  /** An app on a connection of its own with the command line's statement timeout, as `medora audit verify` runs. */
  verifier: App;
}

/**
 * Runs `run` against two instances on a fresh database, and stops everything and drops the database after.
 * `chained: false` runs no sealer and leaves rows unmarked for one (as scripts/bench/audit-chain.ts does); `log`
 * gets both servers' access logs and unexpected errors.
 */
export async function withTwoInstances<T>(
  opts: { chained: boolean; log?: (line: string) => void },
  run: (instances: TwoInstances) => Promise<T>,
): Promise<T> {
  const target = testDatabases('both').find((t) => t.name === 'postgres');
  if (!target) throw new Error('set TEST_DATABASE_URL to a PostgreSQL server');
  const database = await target.open();
  const url = present(database.url, 'database URL');
  const instanceDbs: Db[] = [];
  try {
    for (let i = 0; i < 2; i++) instanceDbs.push(await openPostgres(url, { max: databasePoolSize, timeouts }));
    instanceDbs.push(
      await openPostgres(url, { max: 1, timeouts: { ...timeouts, statementMs: CLI_STATEMENT_TIMEOUT_MS } }),
    );
  } catch (error) {
    for (const db of instanceDbs) await db.close();
    await database.drop();
    throw error;
  }
  const [verifier, ...apps] = [instanceDbs[2], instanceDbs[0], instanceDbs[1]].map((db) =>
    makeTestApp(present(db, 'database'), { clock: fixedClock(NOW) }),
  ) as [App, ...App[]];
  const servers = apps.map((app) => createMedoraServer(app, { log: opts.log ?? (() => {}) }));
  const sealers = opts.chained
    ? apps.map((app) => sealAuditContinuously(app.audit, (line) => console.error(line)))
    : [];
  try {
    // Without the chain nothing seals, and nothing marks a row for a sealer: no transaction id, no index to find it by.
    if (!opts.chained)
      await database.db.exec('drop index audit_log_tx_idx; alter table audit_log alter column tx drop default');
    const urls = await Promise.all(
      servers.map(
        (server) =>
          new Promise<string>((resolve) =>
            server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
          ),
      ),
    );
    return await run({ setup: database.db, apps, urls, verifier });
  } finally {
    await Promise.all(sealers.map((sealer) => sealer.stop()));
    await Promise.all(servers.map((server) => closeGracefully(server, 1000)));
    for (const db of instanceDbs) await db.close();
    await database.drop();
  }
}

/** A bench doctor with the default week: the ids of its weekly slots by ISO weekday (1 Monday … 7 Sunday). */
export interface BenchDoctor {
  id: number;
  slotsOn: Map<number, number[]>;
}

/** `count` doctors, each with the default week. */
export async function createDoctors(app: App, count: number): Promise<BenchDoctor[]> {
  const admin = cliActor('bench');
  const doctors = await Promise.all(
    Array.from({ length: count }, () =>
      app.doctors.createDoctor({ name: 'Dr. Bench', email: uniqueEmail('doctor'), password: PASSWORD }, admin),
    ),
  );
  return Promise.all(
    doctors.map(async (doctor) => {
      const slotsOn = new Map<number, number[]>();
      for (const slot of (await app.scheduling.getSchedule(doctor.id)).slots)
        slotsOn.set(slot.weekday, [...(slotsOn.get(slot.weekday) ?? []), slot.id]);
      return { id: doctor.id, slotsOn };
    }),
  );
}

/** The ISO weekday (1 Monday … 7 Sunday) of a date `YYYY-MM-DD`. */
export const isoWeekdayOf = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay() || 7;

/** `n` patients, made in SQL at once: their user ids. */
export async function createPatients(db: Queryable, n: number, label: string): Promise<number[]> {
  const users = await db.query<{ id: number }>(
    `with u as (insert into users (name, email, password_hash, role)
                select 'Patient ' || i, i || '.' || $1, 'not used', 'patient' from generate_series(1, $2::int) i returning id)
     , p as (insert into patients (user_id) select id from u returning user_id) select user_id as id from p order by user_id`,
    [uniqueEmail(label), n],
  );
  return users.map((u) => u.id);
}

/** A bearer token for each user, signed in by SQL until `until` (a day after the clinic's fixed `NOW` unless given). */
export async function signInBySql(
  db: Queryable,
  userIds: number[],
  until = new Date(Date.parse(NOW) + 86_400_000),
): Promise<string[]> {
  const tokens = userIds.map(() => bearerTokens.issue());
  await db.query(
    `insert into sessions (user_id, token_hash, expires_at) select * from unnest($1::int[], $2::text[], $3::timestamptz[])`,
    [userIds, tokens.map(bearerTokens.digest), tokens.map(() => until)],
  );
  return tokens;
}

/** Non-cancelled appointments, and the distinct slots they hold: any difference is a slot booked twice. */
export async function bookedSlots(
  db: Queryable,
): Promise<{ booked: number; distinctSlots: number; doubleBooked: number }> {
  const slots = onlyRow(
    await db.query<{ booked: number; distinct_slots: number }>(
      `select count(*)::int as booked, count(distinct (doctor_id, date, start_time))::int as distinct_slots
       from appointments where status <> 'cancelled'`,
    ),
  );
  return {
    booked: slots.booked,
    distinctSlots: slots.distinct_slots,
    doubleBooked: slots.booked - slots.distinct_slots,
  };
}

/**
 * The trail once the sealer's last batch is in (waited for a few seconds at most; with the chain only), verified on
 * the verifier's connection: the whole chain is read in one statement, longer than a request may take.
 */
export async function trailAfterSealing(
  { verifier }: Pick<TwoInstances, 'verifier'>,
  chained: boolean,
): Promise<TrailCheck> {
  const sealedBy = performance.now() + 5000;
  while (chained && (await verifier.audit.verifyTrail()).backlog.rows > 0 && performance.now() < sealedBy)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return verifier.audit.verifyTrail();
}

/** The trail in words: how much is sealed into the chain, how much waits and for how long, whether the chain holds. */
export function describeTrail({ chain, backlog, stalled }: TrailCheck): string {
  const waiting =
    backlog.rows === 0
      ? 'no unsealed rows'
      : `${backlog.rows} unsealed rows, the oldest ${backlog.oldestAgeSeconds} s old${stalled ? ' (the sealer has stalled)' : ''}`;
  const ok = chain.intact
    ? 'the chain verifies'
    : `the chain is BROKEN at row ${chain.brokenAt ?? '?'}: ${chain.reason}`;
  return `${chain.rows} sealed rows, ${waiting}; ${ok}`;
}
