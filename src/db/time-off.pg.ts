import type { TimeOffStore } from '../domain/scheduling/ports.ts';
import type { TimeOff } from '../domain/scheduling/time-off.ts';
import type { Queryable } from './db.ts';
import { pageWithTotal } from './list-page.ts';
import { namedOrNull, onlyRow } from './rows.ts';
import { APPOINTMENT_COLUMNS, APPOINTMENT_FROM, hhmm, toAppointment, type AppointmentRow } from './scheduling.pg.ts';

/** Columns of time off `t`, with `tu` the leave's doctor's user (closures have none). */
const TIME_OFF_COLUMNS = `t.id as time_off_id, t.doctor_id as time_off_doctor_id, tu.name as time_off_doctor_name, t.starts_on, t.ends_on,
  t.start_time as time_off_start, t.end_time as time_off_end, t.reason`;
const TIME_OFF_FROM = 'time_off t left join doctors td on td.id = t.doctor_id left join users tu on tu.id = td.user_id';

export interface TimeOffRow {
  time_off_id: number;
  time_off_doctor_id: number | null;
  time_off_doctor_name: string | null;
  starts_on: string;
  ends_on: string;
  time_off_start: string | null;
  time_off_end: string | null;
  reason: string;
}

export function toTimeOff(row: TimeOffRow): TimeOff {
  return {
    id: row.time_off_id,
    doctor: namedOrNull(row.time_off_doctor_id, row.time_off_doctor_name),
    startsOn: row.starts_on,
    endsOn: row.ends_on,
    startTime: row.time_off_start && hhmm(row.time_off_start),
    endTime: row.time_off_end && hhmm(row.time_off_end),
    reason: row.reason,
  };
}

/** Time off `t` that takes away appointment `a`'s slot: the doctor's leave or a closure, on its day, at its times. */
const COVERS_APPOINTMENT = `(t.doctor_id is null or t.doctor_id = a.doctor_id) and a.date between t.starts_on and t.ends_on
  and (t.start_time is null or (a.start_time < t.end_time and t.start_time < a.end_time))`;

/** The doctor's leave and the clinic's closures that overlap `from`…`to`, in the order they begin. */
export const coveringSql = (doctor: string, from: string, to: string) =>
  `select ${TIME_OFF_COLUMNS} from ${TIME_OFF_FROM}
   where (t.doctor_id = ${doctor} or t.doctor_id is null) and t.starts_on <= ${to} and t.ends_on >= ${from}
   order by t.starts_on, t.start_time nulls first, t.id`;

export function timeOffStore(db: Queryable): TimeOffStore {
  return {
    covering: async (doctorId, from, to) => {
      const rows = await db.query<TimeOffRow>(coveringSql('$1', '$2', '$3'), [doctorId, from, to]);
      return rows.map(toTimeOff);
    },
    add: async (t) => {
      const rows = await db.query<TimeOffRow>(
        `with t as (
           insert into time_off (doctor_id, starts_on, ends_on, start_time, end_time, reason)
           values ($1, $2, $3, $4, $5, $6) returning *)
         select ${TIME_OFF_COLUMNS} from t left join doctors td on td.id = t.doctor_id left join users tu on tu.id = td.user_id`,
        [t.doctorId, t.startsOn, t.endsOn, t.startTime, t.endTime, t.reason],
      );
      return toTimeOff(onlyRow(rows));
    },
    list: (filter, req) => {
      const params: unknown[] = [filter.from];
      const doctor =
        filter.doctorId === undefined
          ? ''
          : `and (t.doctor_id is null or t.doctor_id = $${params.push(filter.doctorId)})`;
      return pageWithTotal(
        db,
        req,
        {
          columns: TIME_OFF_COLUMNS,
          rowsOf: `from ${TIME_OFF_FROM} where t.ends_on >= $1 ${doctor}`,
          orderBy: 't.starts_on, t.start_time nulls first, t.id',
          params,
        },
        toTimeOff,
      );
    },
    remove: async (id) => {
      const rows = await db.query<TimeOffRow>(
        `with t as (delete from time_off where id = $1 returning *)
         select ${TIME_OFF_COLUMNS} from t left join doctors td on td.id = t.doctor_id left join users tu on tu.id = td.user_id`,
        [id],
      );
      return rows[0] && toTimeOff(rows[0]);
    },
    visitsToMove: (filter, req) => {
      const params: unknown[] = [filter.today];
      const only = filter.timeOffId === undefined ? '' : `and t.id = $${params.push(filter.timeOffId)}`;
      // One row per visit, with the first time off it falls in, when a leave and a closure both cover it.
      return pageWithTotal<
        AppointmentRow & TimeOffRow,
        { appointment: ReturnType<typeof toAppointment>; timeOff: TimeOff }
      >(
        db,
        req,
        {
          columns: `${APPOINTMENT_COLUMNS}, off.*`,
          rowsOf: `from ${APPOINTMENT_FROM}
            cross join lateral (
              select ${TIME_OFF_COLUMNS} from ${TIME_OFF_FROM}
              where ${COVERS_APPOINTMENT} ${only} order by t.starts_on, t.id limit 1) off
            where a.status = 'scheduled' and a.date >= $1`,
          orderBy: 'a.date, a.start_time, a.id',
          params,
        },
        (row) => ({ appointment: toAppointment(row), timeOff: toTimeOff(row) }),
      );
    },
  };
}
