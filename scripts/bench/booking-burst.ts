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
import { Command } from 'commander';
import type { App } from '../../src/app.ts';
import type { Queryable } from '../../src/db/db.ts';
import type { TrailCheck } from '../../src/domain/audit/use-cases.ts';
import { at, present } from '../../src/testing/assert.ts';
import { benchMachine } from './report.ts';
import {
  DATES,
  SLOTS_A_DAY,
  bookedSlots,
  createDoctors,
  createPatients,
  databasePoolSize,
  describeTrail,
  isoWeekdayOf,
  signInBySql,
  trailAfterSealing,
  withTwoInstances,
} from './two-instances.ts';

const opts = new Command()
  .option('--bookings <n>', 'patients booking at once', '1000')
  .option('--max-wait <seconds>', 'how long a client keeps retrying after 503s, in all', '120')
  .option('--output <file>', 'also write the figures there as JSON (bench/burst-results.json)')
  .parse()
  .opts<{ bookings: string; maxWait: string; output?: string }>();
const n = Number(opts.bookings);
const maxWaitMs = Number(opts.maxWait) * 1000;

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
function burst(chained: boolean): Promise<Burst> {
  return withTwoInstances({ chained }, async ({ setup, apps, urls, verifier }) => {
    const requests = await bookingRequests(at(apps, 0, 'app'), setup);
    const started = performance.now();
    const answers = await Promise.all(
      requests.map((r, i) => bookPatiently(at(urls, i % urls.length, 'url'), r.token, r.body)),
    );
    const seconds = (Math.max(...answers.map((a) => a.at)) - started) / 1000;
    const refused: Record<string, number> = {};
    for (const a of answers) if (a.last !== '201') refused[a.last] = (refused[a.last] ?? 0) + 1;
    const slots = await bookedSlots(setup);
    return {
      firstTry: answers.filter((a) => a.tries === 1 && a.last === '201').length,
      booked: answers.filter((a) => a.last === '201').length,
      refused,
      retries: answers.reduce((sum, a) => sum + a.tries - 1, 0),
      seconds,
      distinctSlots: slots.distinctSlots,
      doubleBooked: slots.doubleBooked,
      trail: await trailAfterSealing({ verifier }, chained),
    };
  });
}

/** Doctors enough for `n` free slots, `n` patients with a session each, and each patient's booking of a slot of their own. */
async function bookingRequests(app: App, db: Queryable) {
  const doctors = await createDoctors(app, Math.ceil(n / (SLOTS_A_DAY * DATES.length)));
  const tokens = await signInBySql(db, await createPatients(db, n, 'burst'));
  return tokens.map((token, i) => {
    const doctor = at(doctors, i % doctors.length, 'doctor');
    const k = Math.floor(i / doctors.length);
    const date = at(DATES, Math.floor(k / SLOTS_A_DAY), 'date');
    return {
      token,
      body: JSON.stringify({
        doctor_id: doctor.id,
        schedule_id: present(doctor.slotsOn.get(isoWeekdayOf(date)), 'schedule')[k % SLOTS_A_DAY],
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
