/**
 * What the load needs from the generated hospital, read before the servers start (an embedded database
 * belongs to one process): signed-in sessions, doctors with their patients, and fresh targets for the writes.
 * Sessions are written straight into the table: signing 10,000 patients in through argon2 would take minutes
 * and measure nothing the login run does not.
 */
import type { Queryable } from '../../src/db/db.ts';
import { onlyRow } from '../../src/db/rows.ts';
import { DEFAULT_BOOKING_LIMITS } from '../../src/domain/scheduling/ports.ts';
import { bearerTokens } from '../../src/security.ts';
import { present } from '../../src/testing/assert.ts';
import { ADMIN_EMAIL } from './dataset.ts';
import { nth } from './load.ts';

export interface Patient {
  id: number;
  email: string;
  token: string;
}

/** The writes the bench drives on Medora and on its bare twin. */
export const WRITE_KINDS = ['booking', 'record', 'payment'] as const;
export type WriteKind = (typeof WRITE_KINDS)[number];

/** One write with a target of its own: a free slot to book, a booked visit to record, an unpaid bill to pay. */
export interface WriteRequest {
  token: string;
  path: string;
  body: string;
}

export interface Fixtures {
  /** The clinic's today the hospital was generated around (yyyy-MM-dd). */
  today: string;
  adminToken: string;
  /** Patients spread over the whole id range, each with a session. */
  patients: Patient[];
  doctorIds: number[];
  /** A doctor's session and one of the patients they have treated. */
  doctorVisits: { token: string; patientId: number }[];
  /**
   * Per write, each request's own target: free slots of the coming week, each for a different patient free that
   * week; visits of the past week booked but not yet recorded, each recorded by its doctor; unpaid bills, each
   * paid by its patient.
   */
  writes: Record<WriteKind, WriteRequest[]>;
}

const PATIENT_POOL = 200;
const DOCTORS_WITH_SESSIONS = 30;
const PATIENTS_PER_DOCTOR = 10;
/** Days of slots the bookings take, from today; and days before today whose free slots get a visit to record. */
const BOOKING_DAYS = 7;
const RECORD_DAYS = 7;
/** What a doctor writes down about a bench visit: a paid service, so recording it raises a bill. */
const VISIT_NOTE = {
  diagnosis: 'Seen for the bench; findings unremarkable.',
  service_type: 'Consultation',
  cost: '80.00',
};

export async function loadFixtures(db: Queryable, today: string, maxWrites: number): Promise<Fixtures> {
  const { id: adminId } = onlyRow(
    await db.query<{ id: number }>('select id from users where lower(email) = lower($1)', [ADMIN_EMAIL]),
  );
  const patients = await db.query<{ id: number; user_id: number; email: string }>(
    `select p.id, p.user_id, u.email from patients p join users u on u.id = p.user_id
     where p.id % greatest(1, (select count(*) from patients) / $1) = 0 order by p.id limit $1`,
    [PATIENT_POOL],
  );
  const doctors = await db.query<{ id: number; user_id: number }>(
    'select id, user_id from doctors where active order by id',
  );
  const treated = await db.query<{ doctor_id: number; user_id: number; patient_id: number }>(
    `select d.id as doctor_id, d.user_id, r.patient_id
     from (select id, user_id from doctors where active order by id limit $1) d
     cross join lateral (select distinct patient_id from medical_records where doctor_id = d.id limit $2) r`,
    [DOCTORS_WITH_SESSIONS, PATIENTS_PER_DOCTOR],
  );
  const bookings = await freeSlots(db, today, maxWrites);
  const visits = await visitsToRecord(db, today, maxWrites);
  const bills = await db.query<{ id: number }>(
    `select b.id from billings b where b.payment_status = 'unpaid' order by b.id desc limit $1`,
    [maxWrites],
  );
  const { disease_id } = onlyRow(await db.query<{ disease_id: number }>('select min(id) as disease_id from diseases'));

  const tokens = await openSessions(db, [
    adminId,
    ...[patients, treated, bookings, visits].flatMap((rows: { user_id: number }[]) => rows.map((row) => row.user_id)),
  ]);
  const tokenOf = (userId: number) => present(tokens.get(userId), 'session token');
  return {
    today,
    adminToken: tokenOf(adminId),
    patients: patients.map((p) => ({ id: p.id, email: p.email, token: tokenOf(p.user_id) })),
    doctorIds: doctors.map((d) => d.id),
    doctorVisits: treated.map((t) => ({ token: tokenOf(t.user_id), patientId: t.patient_id })),
    writes: {
      booking: bookings.map((b) => ({
        token: tokenOf(b.user_id),
        path: '/api/appointments/book',
        body: JSON.stringify({ doctor_id: b.doctor_id, schedule_id: b.schedule_id, date: b.date }),
      })),
      record: visits.map((v) => ({
        token: tokenOf(v.user_id),
        path: `/api/doctor/appointments/${v.id}/medical-record`,
        body: JSON.stringify({ disease_id, ...VISIT_NOTE }),
      })),
      // The desk takes the payment: a patient's own Pay is online only, through the card processor.
      payment: bills.map((b) => ({
        token: tokenOf(adminId),
        path: `/api/billings/${b.id}/payments`,
        body: JSON.stringify({ method: 'cash' }),
      })),
    },
  };
}

interface FreeSlot {
  schedule_id: number;
  doctor_id: number;
  department_id: number;
  room_id: number | null;
  date: string;
  start_time: string;
  end_time: string;
}

/**
 * The first `limit` free slots of the `days` days from `first` on (negative: before it), in `order`. Each slot is
 * looked up in the unique index of booked slots; nothing here grows with the hospital's history.
 */
function freeSlotsOf(db: Queryable, first: string, days: number, order: 'forward' | 'backward', limit: number) {
  const step = order === 'forward' ? '+' : '-';
  return db.query<FreeSlot>(
    `with days as (select $1::date ${step} k as date from generate_series(${order === 'forward' ? '0, $2::int - 1' : '1, $2::int'}) k)
     select s.id as schedule_id, s.doctor_id, d.department_id, s.room_id, days.date, s.start_time, s.end_time
     from days join schedules s on s.weekday = extract(isodow from days.date) and s.retired_at is null
     join doctors d on d.id = s.doctor_id and d.active
     where not exists (select 1 from appointments a
                       where a.doctor_id = s.doctor_id and a.date = days.date and a.start_time = s.start_time and a.status <> 'cancelled')
     order by days.date ${order === 'forward' ? '' : 'desc'}, s.start_time, s.doctor_id limit $3`,
    [first, days, limit],
  );
}

/**
 * Free slots from today on for BOOKING_DAYS days, each paired with a different patient who has nothing booked in
 * those days and room under the upcoming-bookings limit, so every booking must succeed. The slots and the patients
 * are two lists paired here: joined in SQL on their row numbers, the planner could pick a nested loop over both.
 */
async function freeSlots(db: Queryable, today: string, limit: number) {
  const slots = await freeSlotsOf(db, today, BOOKING_DAYS, 'forward', limit);
  const patients = await db.query<{ user_id: number }>(
    `with ahead as (
       -- One pass over the visits from today on, not one per patient: those booked in the week, and the count of
       -- each patient's upcoming visits against the booking limit.
       select a.patient_id,
              bool_or(a.date < $1::date + $2::int and a.status <> 'cancelled') as busy_this_week,
              count(*) filter (where a.status = 'scheduled') as upcoming
       from appointments a where a.date >= $1::date group by a.patient_id
     )
     select p.user_id from patients p left join ahead on ahead.patient_id = p.id
     where not coalesce(ahead.busy_this_week, false) and coalesce(ahead.upcoming, 0) < $3
     order by p.id desc limit $4`,
    [today, BOOKING_DAYS, DEFAULT_BOOKING_LIMITS.upcoming - 1, limit],
  );
  return slots.slice(0, patients.length).map((slot, i) => ({ ...slot, user_id: nth(patients, i).user_id }));
}

/**
 * Books free slots of the RECORD_DAYS days before today for patients spread over the whole table: visits that have
 * taken place and wait for their doctor's record. Answers each with its doctor's user.
 */
export async function visitsToRecord(db: Queryable, today: string, limit: number) {
  const slots = await freeSlotsOf(db, today, RECORD_DAYS, 'backward', limit);
  const patients = (await db.query<{ id: number }>('select id from patients order by id')).map((p) => p.id);
  const column = <K extends keyof FreeSlot>(key: K) => slots.map((slot) => slot[key]);
  return db.query<{ id: number; user_id: number }>(
    `with booked as (
       insert into appointments (patient_id, doctor_id, schedule_id, department_id, room_id, date, start_time, end_time, status)
       select patient_id, doctor_id, schedule_id, department_id, room_id, date, start_time, end_time, 'scheduled'
       from unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::int[], $6::date[], $7::time[], $8::time[])
         as s(patient_id, doctor_id, schedule_id, department_id, room_id, date, start_time, end_time)
       returning id, doctor_id
     )
     select b.id, d.user_id from booked b join doctors d on d.id = b.doctor_id order by b.id`,
    [
      // Each slot's patient is spread over the whole table by a stride prime to its size.
      slots.map((_, i) => nth(patients, ((i + 1) * 7919) % patients.length)),
      column('doctor_id'),
      column('schedule_id'),
      column('department_id'),
      column('room_id'),
      column('date'),
      column('start_time'),
      column('end_time'),
    ],
  );
}

/** One session per user, in one statement; the bearer token of each. */
export async function openSessions(db: Queryable, userIds: number[]): Promise<Map<number, string>> {
  const tokens = new Map(userIds.map((id) => [id, bearerTokens.issue()]));
  await db.query(
    `insert into sessions (user_id, token_hash, expires_at)
     select user_id, token_hash, now() + interval '1 day' from unnest($1::int[], $2::text[]) as s(user_id, token_hash)`,
    [[...tokens.keys()], [...tokens.values()].map((token) => bearerTokens.digest(token))],
  );
  return tokens;
}
