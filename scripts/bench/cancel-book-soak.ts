/**
 * `TEST_DATABASE_URL=… node --import tsx scripts/bench/cancel-book-soak.ts [--seconds 600] [--patients 40]
 * [--doctors 3] [--output FILE]`: cancels, moves and bookings of the same doctors' slots racing for --seconds over
 * two Medora instances on one fresh PostgreSQL database (each with the default pool and timeouts, the audit chain
 * sealed as in `medora serve`). Each patient is a client of its own, its requests alternating between the instances:
 * it books a random free slot of a random doctor, then cancels it, or the desk cancels it, or the desk moves it to a
 * free slot of a random doctor first. A client answered 503 waits the answer's Retry-After (5 s at most) and goes
 * on. After --seconds each client books one more slot and keeps it. Every answer is counted by status and code; at
 * the end SQL checks that no two appointments that are not cancelled hold one slot or overlapping times (the unique
 * index `appointments_slot_key` guards the first), that every acknowledged booking, cancel and move is in the
 * database and the audit trail, and that the audit chain verifies. Exits 1 on any 5xx other than 503, a slot booked
 * twice or a broken chain.
 */
import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import type { Queryable } from '../../src/db/db.ts';
import { onlyRow } from '../../src/db/rows.ts';
import { cliActor } from '../../src/domain/shared/actor.ts';
import { at, present } from '../../src/testing/assert.ts';
import { PASSWORD, uniqueEmail } from '../../src/testing/http.ts';
import { benchMachine } from './report.ts';
import {
  type BenchDoctor,
  DATES,
  bookedSlots,
  createDoctors,
  createPatients,
  databasePoolSize,
  describeTrail,
  signInBySql,
  trailAfterSealing,
  withTwoInstances,
} from './two-instances.ts';

const opts = new Command()
  .option('--seconds <n>', 'how long the clients race', '600')
  .option('--patients <n>', 'patients racing, each a client of its own', '40')
  .option('--doctors <n>', 'doctors whose slots they race for', '3')
  .option('--output <file>', 'also write the figures there as JSON (bench/cancel-book-soak-results.json)')
  .parse()
  .opts<{ seconds: string; patients: string; doctors: string; output?: string }>();
const seconds = Number(opts.seconds);
const patients = Number(opts.patients);
const doctorCount = Number(opts.doctors);

/** No request waits longer than this for its answer. */
const FETCH_TIMEOUT_MS = 30_000;
/** The longest a client waits after a 503, whatever its Retry-After asks. */
const MAX_RETRY_AFTER_MS = 5_000;
/** How often a client asks again to cancel its appointment after 503s before leaving it for its next round. */
const CANCEL_TRIES = 5;

/** How often a client tries to book the appointment it keeps at the end. */
const KEEP_TRIES = 10;

type Step = 'slots' | 'book' | 'patient cancel' | 'desk cancel' | 'desk reschedule';

/** Every answer, by status and code (`201`, `409 slot_taken`, `503 database_conflict`, `no answer (TimeoutError)`). */
const answers: Record<string, number> = {};
const byStep: Record<string, Record<string, number>> = {};
/** Appointments booked after the deadline and kept. */
let kept = 0;
/** The unexpected errors the servers logged (the stack of every 500). */
const serverErrors: string[] = [];

interface Answer {
  status: number;
  code?: string;
  // biome-ignore lint/suspicious/noExplicitAny: the answer's JSON, read where its shape is known
  body: any;
}

const answerKey = (a: Answer) =>
  a.status === 0 ? `no answer (${a.code})` : `${a.status}${a.code ? ` ${a.code}` : ''}`;

/** One request, counted, within FETCH_TIMEOUT_MS; after a 503 it returns once the Retry-After (bounded) has passed. */
async function call(step: Step, url: string, token: string, method: string, path: string, body?: unknown) {
  let answer: Answer;
  let retryAfterMs = 0;
  try {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    const json = await res.json().catch(() => ({}));
    answer = { status: res.status, code: res.ok ? undefined : (json?.code ?? '-'), body: json };
    if (res.status === 503)
      retryAfterMs = Math.min(Number(res.headers.get('retry-after') ?? 1) * 1000, MAX_RETRY_AFTER_MS);
  } catch (error) {
    answer = { status: 0, code: (error as Error).name, body: undefined };
  }
  const key = answerKey(answer);
  answers[key] = (answers[key] ?? 0) + 1;
  const mine = byStep[step] ?? {};
  mine[key] = (mine[key] ?? 0) + 1;
  byStep[step] = mine;
  if (retryAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, retryAfterMs));
  return answer;
}

const pick = <T>(list: readonly T[], what: string): T => at(list, Math.floor(Math.random() * list.length), what);

/**
 * A patient racing until `deadline`: books a random free slot, then cancels it (they or the desk), the desk moving
 * it first a quarter of the time. Requests alternate between the instances.
 */
async function client(
  i: number,
  urls: string[],
  token: string,
  deskToken: string,
  doctors: BenchDoctor[],
  deadline: number,
) {
  let turn = i;
  const next = () => at(urls, turn++ % urls.length, 'url');
  /** A free slot of a random doctor on a random day, or undefined when that day is full (or the read failed). */
  const freeSlot = async (as: string) => {
    const doctor = pick(doctors, 'doctor');
    const date = pick(DATES, 'date');
    const slots = await call('slots', next(), as, 'GET', `/api/appointments/available/${doctor.id}?date=${date}`);
    const free =
      slots.status === 200 ? (slots.body.available_appointments as { schedule_id: number; status: string }[]) : [];
    const open = free.filter((s) => s.status === 'available');
    if (open.length === 0) return undefined;
    return { doctor_id: doctor.id, schedule_id: pick(open, 'slot').schedule_id, date };
  };
  /**
   * Cancels, asking again after 503s and unanswered requests; false when it may still stand after CANCEL_TRIES (to be
   * cancelled next round). Any other answer is counted and ends it: a 409 after an unanswered try means it is done.
   */
  const cancel = async (id: number, byDesk: boolean) => {
    for (let tries = 0; tries < CANCEL_TRIES; tries++) {
      const answer = byDesk
        ? await call('desk cancel', next(), deskToken, 'POST', `/api/appointments/${id}/cancel`)
        : await call('patient cancel', next(), token, 'POST', `/api/patient/appointments/${id}/cancel`);
      if (answer.status !== 503 && answer.status !== 0) return true;
    }
    return false;
  };
  let standing: number[] = [];
  while (performance.now() < deadline) {
    const left: number[] = [];
    for (const id of standing) if (!(await cancel(id, true))) left.push(id);
    standing = left;
    const slot = await freeSlot(token);
    if (!slot) continue;
    const booked = await call('book', next(), token, 'POST', '/api/appointments/book', slot);
    if (booked.status !== 201) continue;
    const id = booked.body.id as number;
    // Half cancelled by the patient, a quarter by the desk, a quarter moved by the desk and then cancelled by either.
    const dice = Math.random();
    const move = dice >= 0.75;
    if (move) {
      const to = await freeSlot(deskToken);
      if (to) await call('desk reschedule', next(), deskToken, 'POST', `/api/appointments/${id}/reschedule`, to);
    }
    if (!(await cancel(id, move ? Math.random() < 0.5 : dice >= 0.5))) standing.push(id);
  }
  for (const id of standing) await cancel(id, true);
  // The last booking stays, so that the check in SQL at the end has appointments to look at.
  for (let tries = 0; tries < KEEP_TRIES; tries++) {
    const slot = await freeSlot(token);
    if (slot && (await call('book', next(), token, 'POST', '/api/appointments/book', slot)).status === 201) {
      kept++;
      return;
    }
  }
}

const sum = (counts: Record<string, number>, match: (key: string) => boolean) =>
  Object.entries(counts)
    .filter(([key]) => match(key))
    .reduce((total, [, n]) => total + n, 0);
const ok = (step: Step, status: number) => byStep[step]?.[String(status)] ?? 0;
const countBy = async (db: Queryable, sql: string) =>
  Object.fromEntries((await db.query<{ key: string; n: number }>(sql)).map((r) => [r.key, r.n]));

const startedAt = new Date().toISOString();
const result = await withTwoInstances(
  {
    chained: true,
    log: (line) => {
      if (!line.startsWith('error ')) return;
      serverErrors.push(line);
      console.error(line);
    },
  },
  async ({ setup, apps, urls, verifier }) => {
    const app = at(apps, 0, 'app');
    const doctors = await createDoctors(app, doctorCount);
    const tokens = await signInBySql(setup, await createPatients(setup, patients, 'soak'));
    const desk = await app.staff.createReceptionist(
      { name: 'Rita Reception', email: uniqueEmail('reception'), password: PASSWORD },
      cliActor('bench'),
    );
    const [deskToken] = await signInBySql(setup, [desk.id]);
    const started = performance.now();
    const progress = setInterval(() => {
      const total = sum(answers, () => true);
      console.log(
        `${((performance.now() - started) / 1000).toFixed(0)} s: ${total} answers, ${ok('book', 201)} booked, ` +
          `${ok('patient cancel', 200) + ok('desk cancel', 200)} cancelled, ${ok('desk reschedule', 200)} moved, ` +
          `${sum(answers, (key) => key.startsWith('500'))} × 500, ${sum(answers, (key) => key.startsWith('503'))} × 503`,
      );
    }, 60_000);
    try {
      await Promise.all(
        tokens.map((token, i) =>
          client(i, urls, token, present(deskToken, 'desk token'), doctors, started + seconds * 1000),
        ),
      );
    } finally {
      clearInterval(progress);
    }
    const ranSeconds = (performance.now() - started) / 1000;
    // The counts first, should a check below fail.
    console.log(`clients done after ${ranSeconds.toFixed(1)} s: ${JSON.stringify(byStep)}`);
    return {
      ranSeconds,
      slots: await bookedSlots(setup),
      overlapping: onlyRow(
        await setup.query<{ n: number }>(
          `select count(*)::int as n from appointments a join appointments b
             on b.doctor_id = a.doctor_id and b.date = a.date and b.id > a.id
            and b.start_time < a.end_time and a.start_time < b.end_time
           where a.status <> 'cancelled' and b.status <> 'cancelled'`,
        ),
      ).n,
      appointments: await countBy(setup, 'select status as key, count(*)::int as n from appointments group by status'),
      audited: await countBy(
        setup,
        `select action as key, count(*)::int as n from audit_log where entity = 'appointment' group by action`,
      ),
      trail: await trailAfterSealing({ verifier }, true),
    };
  },
);

const requests = sum(answers, () => true);
const bookings = ok('book', 201);
const cancels = { by_patient: ok('patient cancel', 200), by_desk: ok('desk cancel', 200) };
const cancelled = cancels.by_patient + cancels.by_desk;
const reschedules = ok('desk reschedule', 200);
const status500 = sum(answers, (key) => key.startsWith('500'));
/** Any 5xx but the 503 asked for. */
const serverFailures = sum(answers, (key) => key.startsWith('5') && !key.startsWith('503'));
const status503 = Object.fromEntries(
  Object.entries(answers)
    .filter(([key]) => key.startsWith('503'))
    .map(([key, n]) => [key.slice(4), n]),
);
const noAnswer = sum(answers, (key) => key.startsWith('no answer'));
const inSql = {
  appointments: result.appointments,
  non_cancelled: result.slots.booked,
  distinct_slots: result.slots.distinctSlots,
  double_booked: result.slots.doubleBooked,
  overlapping_pairs: result.overlapping,
  audited: result.audited,
};
// A write whose answer never came may have committed: then the database has more than was acknowledged, never less.
const rows = sum(result.appointments, () => true);
const acknowledged = {
  bookings_in_database: rows === bookings,
  cancels_in_database: (result.appointments.cancelled ?? 0) === cancelled,
  kept_in_database: result.slots.booked === kept,
  bookings_audited: (result.audited.book ?? 0) === bookings,
  cancels_audited: (result.audited.cancel ?? 0) === cancelled,
  moves_audited: (result.audited.appointment_rescheduled ?? 0) === reschedules,
};
const { chain, backlog } = result.trail;

console.log(
  `${seconds} s of cancels and bookings racing: ${patients} patients and the desk over 2 instances (pool ${databasePoolSize} each), ${doctorCount} doctors, ${DATES.length} days; ran ${result.ranSeconds.toFixed(1)} s`,
);
console.log(
  `  ${requests} requests: ${bookings} booked (${kept} of them kept at the end), ${cancelled} cancelled (${cancels.by_patient} by the patient, ${cancels.by_desk} by the desk), ${reschedules} moved by the desk`,
);
console.log(
  `  answers: ${Object.entries(answers)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, n]) => `${n} × ${key}`)
    .join(', ')}`,
);
console.log(
  `  ${status500} × 500, ${serverFailures} × 5xx other than 503, ${sum(status503, () => true)} × 503${
    Object.keys(status503).length
      ? ` (${Object.entries(status503)
          .map(([code, n]) => `${n} × ${code}`)
          .join(', ')})`
      : ''
  }, ${noAnswer} without an answer`,
);
console.log(
  `  in SQL: ${inSql.non_cancelled} appointments kept at the end (${kept} acknowledged) in ${inSql.distinct_slots} distinct slots, ` +
    `${inSql.double_booked} booked twice, ${inSql.overlapping_pairs} pairs overlapping; ` +
    `acknowledged writes ${Object.values(acknowledged).every(Boolean) ? 'all in the database and the trail' : `NOT all there: ${JSON.stringify(acknowledged)}`}`,
);
console.log(`  audit trail: ${describeTrail(result.trail)}`);

if (opts.output) {
  await writeFile(
    opts.output,
    `${JSON.stringify(
      {
        started_at: startedAt,
        seconds,
        ran_seconds: Number(result.ranSeconds.toFixed(1)),
        instances: 2,
        pool_per_instance: databasePoolSize,
        doctors: doctorCount,
        patients,
        dates: DATES,
        machine: benchMachine(),
        requests,
        answers,
        by_request: byStep,
        bookings,
        kept_at_the_end: kept,
        cancels: { ...cancels, total: cancelled },
        reschedules,
        status_500: status500,
        status_5xx_other_than_503: serverFailures,
        status_503: status503,
        no_answer: noAnswer,
        in_sql: inSql,
        acknowledged,
        audit_trail: {
          sealed_rows: chain.rows,
          unsealed_rows: backlog.rows,
          verifies: chain.intact,
          ...(chain.intact ? {} : { broken_at: chain.brokenAt, reason: chain.reason }),
        },
        server_errors: serverErrors.slice(0, 20),
      },
      null,
      2,
    )}\n`,
  );
  console.log(`figures written to ${opts.output}`);
}
if (serverFailures > 0 || inSql.double_booked > 0 || inSql.overlapping_pairs > 0 || !chain.intact) process.exitCode = 1;
