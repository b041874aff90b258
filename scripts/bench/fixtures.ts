/**
 * What the load needs from the generated hospital, read before the servers start (an embedded database
 * belongs to one process): signed-in sessions, doctors with their patients, and today's free slots.
 * Sessions are written straight into the table: signing 10,000 patients in through argon2 would take minutes
 * and measure nothing the login run does not.
 */
import type { Queryable } from '../../src/db/db.ts';
import { onlyRow } from '../../src/db/rows.ts';
import { isoWeekday } from '../../src/domain/shared/clock.ts';
import { bearerTokens } from '../../src/security.ts';
import { ADMIN_EMAIL } from './dataset.ts';

export interface Patient {
  id: number;
  email: string;
  token: string;
}

export interface Booking {
  token: string;
  body: string;
}

export interface Fixtures {
  adminToken: string;
  /** Patients spread over the whole id range, each with a session. */
  patients: Patient[];
  doctorIds: number[];
  /** A doctor's session and one of the patients they have treated. */
  doctorVisits: { token: string; patientId: number }[];
  /** Free slots of today, each for a different patient who has nothing else at that time. */
  bookings: Booking[];
}

const PATIENT_POOL = 200;
const DOCTORS_WITH_SESSIONS = 30;
const PATIENTS_PER_DOCTOR = 10;

export async function loadFixtures(db: Queryable, today: string, maxBookings: number): Promise<Fixtures> {
  const { id: adminId } = onlyRow(await db.query<{ id: number }>('select id from users where lower(email) = lower($1)', [ADMIN_EMAIL]));
  const patients = await db.query<{ id: number; user_id: number; email: string }>(
    `select p.id, p.user_id, u.email from patients p join users u on u.id = p.user_id
     where p.id % greatest(1, (select count(*) from patients) / $1) = 0 order by p.id limit $1`,
    [PATIENT_POOL],
  );
  const doctors = await db.query<{ id: number; user_id: number }>('select id, user_id from doctors where active order by id');
  const treated = await db.query<{ doctor_id: number; user_id: number; patient_id: number }>(
    `select d.id as doctor_id, d.user_id, r.patient_id
     from (select id, user_id from doctors where active order by id limit $1) d
     cross join lateral (select distinct patient_id from medical_records where doctor_id = d.id limit $2) r`,
    [DOCTORS_WITH_SESSIONS, PATIENTS_PER_DOCTOR],
  );
  const free = await db.query<{ user_id: number; doctor_id: number; schedule_id: number }>(
    `with free_slots as (
       select s.id as schedule_id, s.doctor_id, row_number() over (order by s.start_time, s.doctor_id) as n
       from schedules s join doctors d on d.id = s.doctor_id and d.active
       where s.retired_at is null and s.weekday = $2
         and not exists (select 1 from appointments a
                         where a.doctor_id = s.doctor_id and a.date = $1 and a.start_time = s.start_time and a.status <> 'cancelled')
     ), free_patients as (
       select p.user_id, row_number() over (order by p.id desc) as n
       from patients p
       where not exists (select 1 from appointments a where a.patient_id = p.id and a.date = $1 and a.status <> 'cancelled')
     )
     select fp.user_id, fs.doctor_id, fs.schedule_id from free_slots fs join free_patients fp on fp.n = fs.n
     order by fs.n limit $3`,
    [today, isoWeekday(today), maxBookings],
  );

  const tokens = await openSessions(db, [adminId, ...patients.map((p) => p.user_id), ...treated.map((t) => t.user_id), ...free.map((f) => f.user_id)]);
  return {
    adminToken: tokens.get(adminId)!,
    patients: patients.map((p) => ({ id: p.id, email: p.email, token: tokens.get(p.user_id)! })),
    doctorIds: doctors.map((d) => d.id),
    doctorVisits: treated.map((t) => ({ token: tokens.get(t.user_id)!, patientId: t.patient_id })),
    bookings: free.map((f) => ({
      token: tokens.get(f.user_id)!,
      body: JSON.stringify({ doctor_id: f.doctor_id, schedule_id: f.schedule_id, date: today }),
    })),
  };
}

/** One session per user, in one statement; the bearer token of each. */
async function openSessions(db: Queryable, userIds: number[]): Promise<Map<number, string>> {
  const tokens = new Map(userIds.map((id) => [id, bearerTokens.issue()]));
  await db.query(
    `insert into sessions (user_id, token_hash, expires_at)
     select user_id, token_hash, now() + interval '1 day' from unnest($1::int[], $2::text[]) as s(user_id, token_hash)`,
    [[...tokens.keys()], [...tokens.values()].map((token) => bearerTokens.digest(token))],
  );
  return tokens;
}
