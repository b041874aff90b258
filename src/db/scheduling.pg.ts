import type { AppointmentStore, ScheduleStore, StatusCounts } from '../domain/scheduling/ports.ts';
import {
  ACTIVE_STATUSES,
  APPOINTMENT_STATUSES,
  SLOT_TAKEN,
  type Appointment,
  type AppointmentStatus,
  type SlotPlan,
  type WeeklySlot,
} from '../domain/scheduling/scheduling.ts';
import { defaultHours, slotsOf, type HoursRange, type SavedRange } from '../domain/scheduling/working-hours.ts';
import { invalid } from '../domain/shared/errors.ts';
import { containsPattern } from '../domain/shared/pagination.ts';
import type { Queryable } from './db.ts';
import { pageWithTotal } from './list-page.ts';
import { namedOrNull, onlyRow } from './rows.ts';
import { constraintName, isForeignKeyViolation, onUnique } from './sql-errors.ts';

/** `time` columns arrive as HH:mm:ss; the API speaks HH:mm. */
export const hhmm = (time: string) => time.slice(0, 5);

// --- working hours

interface RangeRow {
  weekday: number;
  start_time: string;
  end_time: string;
  slot_minutes: number;
  room_id: number | null;
  room_name: string | null;
}

const toSavedRange = (row: RangeRow): SavedRange => ({
  weekday: row.weekday,
  startTime: hhmm(row.start_time),
  endTime: hhmm(row.end_time),
  slotMinutes: row.slot_minutes,
  room: namedOrNull(row.room_id, row.room_name),
});

/** Makes `hours` the doctor's working hours, in two statements whatever their number. */
async function writeHours(db: Queryable, doctorId: number, hours: HoursRange[]): Promise<void> {
  await db.query('delete from working_hours where doctor_id = $1', [doctorId]);
  await db.query(
    `insert into working_hours (doctor_id, weekday, start_time, end_time, slot_minutes, room_id)
     select $1, w.weekday, w.start_time, w.end_time, w.slot_minutes, w.room_id
     from unnest($2::smallint[], $3::time[], $4::time[], $5::smallint[], $6::integer[]) as w(weekday, start_time, end_time, slot_minutes, room_id)`,
    [
      doctorId,
      hours.map((r) => r.weekday),
      hours.map((r) => r.startTime),
      hours.map((r) => r.endTime),
      hours.map((r) => r.slotMinutes),
      hours.map((r) => r.roomId),
    ],
  );
}

const ROOM_KEYS = new Set(['working_hours_room_id_fkey', 'schedules_room_id_fkey']);

// --- weekly patterns

export const SLOT_COLUMNS =
  's.id, s.doctor_id, s.weekday, s.start_time, s.end_time, s.retired_at, s.room_id, r.name as room_name';
export const SLOT_FROM = 'schedules s left join rooms r on r.id = s.room_id';

/** A row of SLOT_COLUMNS. */
export interface WeeklySlotRow {
  id: number;
  doctor_id: number;
  weekday: number;
  start_time: string;
  end_time: string;
  retired_at: Date | null;
  room_id: number | null;
  room_name: string | null;
}

export function toWeeklySlot(row: WeeklySlotRow): WeeklySlot {
  return {
    id: row.id,
    doctorId: row.doctor_id,
    weekday: row.weekday,
    startTime: hhmm(row.start_time),
    endTime: hhmm(row.end_time),
    room: namedOrNull(row.room_id, row.room_name),
    retired: row.retired_at != null,
  };
}

/** A pattern as `$2`…`$5`: column arrays that `unnest` turns back into rows, so a whole week is one statement. */
const PLANNED =
  'unnest($2::smallint[], $3::time[], $4::time[], $5::integer[]) as w(weekday, start_time, end_time, room_id)';
const planParams = (doctorId: number, plan: SlotPlan[]) => [
  doctorId,
  plan.map((s) => s.weekday),
  plan.map((s) => s.startTime),
  plan.map((s) => s.endTime),
  plan.map((s) => s.roomId),
];

// The booking locks are FOR NO KEY UPDATE: they queue one doctor's (or one patient's) bookings behind each other
// but leave alone the key-share locks of other writes' foreign-key checks (a medical record naming the doctor),
// which a plain FOR UPDATE would block and could deadlock with.

export function scheduleStore(db: Queryable): ScheduleStore {
  const activeDoctor = async (doctorId: number, lock: string) =>
    (await db.query(`select id from doctors where id = $1 and active ${lock}`, [doctorId])).length > 0;
  return {
    isActiveDoctor: (doctorId) => activeDoctor(doctorId, ''),
    lockDoctor: (doctorId) => activeDoctor(doctorId, 'for no key update'),
    currentSlots: async (doctorId, weekday) => {
      const rows = await db.query<WeeklySlotRow>(
        `select ${SLOT_COLUMNS} from ${SLOT_FROM}
         where s.doctor_id = $1 and s.retired_at is null and ($2::smallint is null or s.weekday = $2)
         order by s.weekday, s.start_time`,
        [doctorId, weekday ?? null],
      );
      return rows.map(toWeeklySlot);
    },
    departmentDoctors: async (departmentId) => {
      const rows = await db.query<{ id: number | null; name: string | null }>(
        `select d.id, u.name from departments dep
         left join doctors d on d.department_id = dep.id and d.active left join users u on u.id = d.user_id
         where dep.id = $1 order by u.name, d.id`,
        [departmentId],
      );
      if (rows.length === 0) return undefined;
      return rows.flatMap((row) => (row.id === null || row.name === null ? [] : [{ id: row.id, name: row.name }]));
    },
    find: async (scheduleId) => {
      const [row] = await db.query<WeeklySlotRow>(`select ${SLOT_COLUMNS} from ${SLOT_FROM} where s.id = $1`, [
        scheduleId,
      ]);
      return row && toWeeklySlot(row);
    },
    hours: async (doctorId) => {
      const rows = await db.query<RangeRow>(
        `select h.weekday, h.start_time, h.end_time, h.slot_minutes, h.room_id, r.name as room_name
         from working_hours h left join rooms r on r.id = h.room_id
         where h.doctor_id = $1 order by h.weekday, h.start_time`,
        [doctorId],
      );
      return rows.map(toSavedRange);
    },
    replace: async (doctorId, hours, at) => {
      const plan = slotsOf(hours);
      try {
        await writeHours(db, doctorId, hours);
        // The insert's subquery reads the snapshot from before the update, so slots kept unchanged are
        // neither retired nor inserted twice.
        await db.query(
          `with wanted as (select * from ${PLANNED}),
           retired as (
             update schedules s set retired_at = $6
             where s.doctor_id = $1 and s.retired_at is null
               and not exists (
                 select 1 from wanted w where w.weekday = s.weekday and w.start_time = s.start_time
                   and w.end_time = s.end_time and w.room_id is not distinct from s.room_id)
           )
           insert into schedules (doctor_id, weekday, start_time, end_time, room_id)
           select $1, w.weekday, w.start_time, w.end_time, w.room_id from wanted w
           where not exists (
             select 1 from schedules s where s.doctor_id = $1 and s.retired_at is null and s.weekday = w.weekday
               and s.start_time = w.start_time and s.end_time = w.end_time and s.room_id is not distinct from w.room_id)`,
          [...planParams(doctorId, plan), at],
        );
      } catch (error) {
        if (isForeignKeyViolation(error) && ROOM_KEYS.has(constraintName(error) ?? ''))
          throw invalid({ room_id: ['does not exist'] });
        throw error;
      }
    },
    createDefaultPattern: async (doctorId, departmentId) => {
      const [room] = await db.query<{ id: number | null }>('select min(id) as id from rooms where department_id = $1', [
        departmentId,
      ]);
      const hours = defaultHours(room?.id ?? null);
      await writeHours(db, doctorId, hours);
      await db.query(
        `insert into schedules (doctor_id, weekday, start_time, end_time, room_id) select $1, w.* from ${PLANNED}`,
        planParams(doctorId, slotsOf(hours)),
      );
    },
  };
}

// --- appointments

/** The one appointment row every list reads (the admin's list too), mapped by `toAppointment`. */
export const APPOINTMENT_COLUMNS = `a.id, a.date, a.start_time, a.end_time, a.status,
  a.patient_id, pu.name as patient_name, pu.email as patient_email, p.birthdate as patient_birth_date,
  a.doctor_id, du.name as doctor_name, du.email as doctor_email,
  a.department_id, dep.name as department_name, a.room_id, r.name as room_name, a.sequence`;
/** Appointments of `source` (the table, or rows an insert returns) as `a`, with the names they show. */
const appointmentsFrom = (source: string) => `${source} a
  join patients p on p.id = a.patient_id join users pu on pu.id = p.user_id
  join doctors d on d.id = a.doctor_id join users du on du.id = d.user_id
  left join departments dep on dep.id = a.department_id left join rooms r on r.id = a.room_id`;
export const APPOINTMENT_FROM = appointmentsFrom('appointments');
/** Searches APPOINTMENT_FROM by patient or doctor name or email, department or room; `$n` is the contains-pattern. */
export const appointmentSearch = (n: number) =>
  `(lower(pu.name) like $${n} or lower(pu.email) like $${n} or lower(du.name) like $${n} or lower(du.email) like $${n}
    or lower(dep.name) like $${n} or lower(r.name) like $${n})`;

/** A row of APPOINTMENT_COLUMNS. */
export interface AppointmentRow {
  id: number;
  date: string;
  start_time: string;
  end_time: string;
  status: AppointmentStatus;
  patient_id: number;
  patient_name: string;
  patient_email: string | null;
  patient_birth_date: string | null;
  doctor_id: number;
  doctor_name: string;
  doctor_email: string;
  department_id: number | null;
  department_name: string | null;
  room_id: number | null;
  room_name: string | null;
  sequence: number;
}

export function toAppointment(row: AppointmentRow): Appointment {
  return {
    id: row.id,
    date: row.date,
    startTime: hhmm(row.start_time),
    endTime: hhmm(row.end_time),
    status: row.status,
    patient: { id: row.patient_id, name: row.patient_name, email: row.patient_email },
    patientBirthDate: row.patient_birth_date,
    doctor: { id: row.doctor_id, name: row.doctor_name, email: row.doctor_email },
    department: namedOrNull(row.department_id, row.department_name),
    room: namedOrNull(row.room_id, row.room_name),
    sequence: row.sequence,
  };
}

/** The times of one doctor's or patient's appointments on a date that are not cancelled, but for `except`. */
export const bookedTimesSql = (column: 'doctor_id' | 'patient_id', owner: string, date: string, except: string) =>
  `select start_time, end_time from appointments
   where ${column} = ${owner} and date = ${date} and status <> 'cancelled' and id is distinct from ${except}`;
export interface BookedTimeRow {
  start_time: string;
  end_time: string;
}
export const toBookedTime = (row: BookedTimeRow) => ({ startTime: hhmm(row.start_time), endTime: hhmm(row.end_time) });

/** The patient's scheduled appointments with the doctor on a date, and from today on with anyone, but for `except`. */
export const patientBookingsSql = (patient: string, doctor: string, date: string, today: string, except: string) =>
  `select count(*) filter (where doctor_id = ${doctor} and date = ${date})::int as with_doctor_that_day, count(*)::int as upcoming
   from appointments where patient_id = ${patient} and status = 'scheduled' and date >= ${today} and id is distinct from ${except}`;
export interface PatientBookingsRow {
  with_doctor_that_day: number;
  upcoming: number;
}
export const toPatientBookings = (row: PatientBookingsRow) => ({
  withDoctorThatDay: row.with_doctor_that_day,
  upcoming: row.upcoming,
});

export function appointmentStore(db: Queryable): AppointmentStore {
  const findOne = async (id: number) => {
    const [row] = await db.query<AppointmentRow>(
      `select ${APPOINTMENT_COLUMNS} from ${APPOINTMENT_FROM} where a.id = $1`,
      [id],
    );
    return row && toAppointment(row);
  };
  return {
    lockPatient: async (patientId) => {
      const [row] = await db.query<{ has_email: boolean }>(
        'select u.email is not null as has_email from patients p join users u on u.id = p.user_id where p.id = $1 for no key update of p',
        [patientId],
      );
      return row && { hasEmail: row.has_email };
    },
    bookedTimes: async (owner, date, except) => {
      const [column, id] =
        'doctorId' in owner ? (['doctor_id', owner.doctorId] as const) : (['patient_id', owner.patientId] as const);
      const rows = await db.query<BookedTimeRow>(bookedTimesSql(column, '$1', '$2', '$3'), [id, date, except ?? null]);
      return rows.map(toBookedTime);
    },
    doctorBookings: async (doctorId, from, to) => {
      const rows = await db.query<{ date: string; start_time: string; end_time: string }>(
        `select date, start_time, end_time
         from appointments where doctor_id = $1 and date between $2 and $3 and status <> 'cancelled'`,
        [doctorId, from, to],
      );
      return rows.map((row) => ({ date: row.date, startTime: hhmm(row.start_time), endTime: hhmm(row.end_time) }));
    },
    patientBookings: async (patientId, doctorId, date, today, except) => {
      const rows = await db.query<PatientBookingsRow>(patientBookingsSql('$1', '$2', '$3', '$4', '$5'), [
        patientId,
        doctorId,
        date,
        today,
        except ?? null,
      ]);
      return toPatientBookings(onlyRow(rows));
    },
    insert: async (a) => {
      const rows = await onUnique(
        () =>
          db.query<AppointmentRow>(
            `with inserted as (
               insert into appointments (patient_id, doctor_id, schedule_id, department_id, room_id, date, start_time, end_time)
               select $1, s.doctor_id, s.id, coalesce(d.department_id, r.department_id), s.room_id, $3, s.start_time, s.end_time
               from schedules s join doctors d on d.id = s.doctor_id left join rooms r on r.id = s.room_id
               where s.id = $2
               returning *)
             select ${APPOINTMENT_COLUMNS} from ${appointmentsFrom('inserted')}`,
            [a.patientId, a.scheduleId, a.date],
          ),
        { appointments_slot_key: SLOT_TAKEN },
      );
      return toAppointment(onlyRow(rows));
    },
    find: (id) => findOne(id),
    // The row alone, then read with its joins: one joined `select … for update of a` that waited would re-check only
    // the locked row, so a move to another doctor committed meanwhile would make it answer nothing (row-locks.pg.int.test.ts).
    lock: async (id) => {
      const [locked] = await db.query<{ id: number }>('select id from appointments where id = $1 for update', [id]);
      return locked && findOne(locked.id);
    },
    setStatus: async (id, status, at) => {
      const rows = await db.query<{ sequence: number }>(
        `update appointments set status = $2, updated_at = $3,
           checked_in_at = case $2 when 'checked_in' then $3 when 'scheduled' then null else checked_in_at end
         where id = $1 returning sequence`,
        [id, status, at],
      );
      return onlyRow(rows).sequence;
    },
    move: async (id, to, at) => {
      const rows = await onUnique(
        () =>
          db.query<AppointmentRow>(
            `with moved as (
               update appointments a
               set doctor_id = s.doctor_id, schedule_id = s.id, department_id = coalesce(d.department_id, r.department_id),
                   room_id = s.room_id, date = $3, start_time = s.start_time, end_time = s.end_time, updated_at = $4
               from schedules s join doctors d on d.id = s.doctor_id left join rooms r on r.id = s.room_id
               where a.id = $1 and s.id = $2
               returning a.*)
             select ${APPOINTMENT_COLUMNS} from ${appointmentsFrom('moved')}`,
            [id, to.scheduleId, to.date, at],
          ),
        { appointments_slot_key: SLOT_TAKEN },
      );
      return toAppointment(onlyRow(rows));
    },
    dayCounts: async (date, doctorId) => {
      const rows = await db.query<{ status: AppointmentStatus; n: number }>(
        `select status, count(*)::int as n from appointments
         where date = $1 and ($2::bigint is null or doctor_id = $2) group by status`,
        [date, doctorId ?? null],
      );
      const counts = Object.fromEntries(APPOINTMENT_STATUSES.map((status) => [status, 0])) as StatusCounts;
      for (const row of rows) counts[row.status] = row.n;
      return counts;
    },
    agenda: async (doctorId, from, to) => {
      const rows = await db.query<AppointmentRow>(
        `select ${APPOINTMENT_COLUMNS} from ${APPOINTMENT_FROM}
         where a.doctor_id = $1 and a.date between $2 and $3 and a.status <> 'cancelled'
         order by a.date, a.start_time, a.id`,
        [doctorId, from, to],
      );
      return rows.map(toAppointment);
    },
    list: async (filter, req, today) => {
      const params: unknown[] = [];
      const param = (value: unknown) => `$${params.push(value)}`;
      const conditions = [
        filter.patientId !== undefined && `a.patient_id = ${param(filter.patientId)}`,
        filter.doctorId !== undefined && `a.doctor_id = ${param(filter.doctorId)}`,
        filter.status && `a.status = ${param(filter.status)}`,
        filter.hideCancelled && !filter.status && `a.status <> 'cancelled'`,
        filter.date && `a.date = ${param(filter.date)}`,
        filter.when &&
          `${filter.when === 'past' ? 'not ' : ''}(a.status = any(${param([...ACTIVE_STATUSES])}::text[]) and a.date >= ${param(today)})`,
        req.q && appointmentSearch(params.push(containsPattern(req.q))),
      ].filter(Boolean);
      const where = conditions.length > 0 ? `where ${conditions.join(' and ')}` : '';
      return pageWithTotal(
        db,
        req,
        {
          columns: APPOINTMENT_COLUMNS,
          rowsOf: `from ${APPOINTMENT_FROM} ${where}`,
          countOf: `from ${req.q ? APPOINTMENT_FROM : 'appointments a'} ${where}`,
          orderBy: (orderParam) => {
            if (filter.date) return 'a.start_time, du.name, a.id';
            const t = orderParam(today);
            return `a.date < ${t}, case when a.date >= ${t} then a.date end, case when a.date >= ${t} then a.start_time end,
                    a.date desc, a.start_time desc, a.id desc`;
          },
          params,
        },
        toAppointment,
      );
    },
  };
}
