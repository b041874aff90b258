import type { DoctorFeedVisit, FeedOwner, FeedVisit } from '../domain/notifications/feed.ts';
import type { CalendarFeedStore } from '../domain/notifications/ports.ts';
import type { Queryable } from './db.ts';

interface OwnerRow {
  user_id: number;
  role: string;
  name: string;
  patient_id: number | null;
  doctor_id: number | null;
}

interface VisitRow {
  id: number;
  date: string;
  start_time: string;
  end_time: string;
  status: FeedVisit['status'];
  doctor_name: string;
  room_name: string | null;
  department_name: string | null;
  sequence: number;
  updated_at: Date;
}

const VISIT_COLUMNS =
  'a.id, a.date, a.start_time, a.end_time, a.status, du.name as doctor_name, r.name as room_name, dep.name as department_name, a.sequence, a.updated_at';
const VISIT_FROM = `appointments a
  join doctors d on d.id = a.doctor_id join users du on du.id = d.user_id
  left join departments dep on dep.id = a.department_id left join rooms r on r.id = a.room_id`;

const toFeedVisit = (row: VisitRow): FeedVisit => ({
  appointmentId: row.id,
  date: row.date,
  startTime: row.start_time.slice(0, 5),
  endTime: row.end_time.slice(0, 5),
  status: row.status,
  doctorName: row.doctor_name,
  room: row.room_name,
  department: row.department_name,
  sequence: row.sequence,
  revisedAt: new Date(row.updated_at),
});

function toOwner(row: OwnerRow): FeedOwner | undefined {
  const who = { userId: row.user_id, name: row.name };
  if (row.role === 'doctor' && row.doctor_id !== null) return { ...who, role: 'doctor', doctorId: row.doctor_id };
  if (row.role === 'patient' && row.patient_id !== null) return { ...who, role: 'patient', patientId: row.patient_id };
  return undefined;
}

/** Feed tokens: random, stored as their SHA-256 digest, one row per user that a new token replaces. */
export function calendarFeedStore(
  db: Queryable,
  tokens: { issue(): string; digest(token: string): string },
): CalendarFeedStore {
  return {
    replace: async (userId, at) => {
      const token = tokens.issue();
      await db.query(
        `insert into calendar_feeds (user_id, token_hash, created_at) values ($1, $2, $3)
         on conflict (user_id) do update set token_hash = excluded.token_hash, created_at = excluded.created_at`,
        [userId, tokens.digest(token), at],
      );
      return token;
    },
    remove: async (userId) =>
      (await db.query('delete from calendar_feeds where user_id = $1 returning user_id', [userId])).length > 0,
    find: async (userId) => {
      const [row] = await db.query<{ created_at: Date }>('select created_at from calendar_feeds where user_id = $1', [
        userId,
      ]);
      return row && { createdAt: row.created_at };
    },
    ownerOf: async (token) => {
      // A deactivated account's or doctor's feed stops with their sign-in.
      const [row] = await db.query<OwnerRow>(
        `select u.id as user_id, u.role, u.name, p.id as patient_id, d.id as doctor_id
         from calendar_feeds f join users u on u.id = f.user_id and u.active
         left join patients p on p.user_id = u.id left join doctors d on d.user_id = u.id and d.active
         where f.token_hash = $1`,
        [tokens.digest(token)],
      );
      return row && toOwner(row);
    },
    doctorVisits: async (doctorId, from, to) => {
      const rows = await db.query<VisitRow & { patient_name: string }>(
        `select ${VISIT_COLUMNS}, pu.name as patient_name
         from ${VISIT_FROM} join patients p on p.id = a.patient_id join users pu on pu.id = p.user_id
         where a.doctor_id = $1 and a.date between $2 and $3 order by a.date, a.start_time, a.id`,
        [doctorId, from, to],
      );
      return rows.map((row): DoctorFeedVisit => ({ ...toFeedVisit(row), patientName: row.patient_name }));
    },
    patientVisits: async (patientId, from, to) => {
      const rows = await db.query<VisitRow>(
        `select ${VISIT_COLUMNS} from ${VISIT_FROM}
         where a.patient_id = $1 and a.date between $2 and $3 order by a.date, a.start_time, a.id`,
        [patientId, from, to],
      );
      return rows.map(toFeedVisit);
    },
  };
}
