import type { PlacementStore } from '../domain/scheduling/ports.ts';
import type { Queryable } from './db.ts';
import { onlyRow } from './rows.ts';
import {
  SLOT_COLUMNS,
  SLOT_FROM,
  bookedTimesSql,
  patientBookingsSql,
  toBookedTime,
  toPatientBookings,
  toWeeklySlot,
  type BookedTimeRow,
  type PatientBookingsRow,
  type WeeklySlotRow,
} from './scheduling.pg.ts';
import { coveringSql, toTimeOff, type TimeOffRow } from './time-off.pg.ts';
import { holdsSql, toHold, type HoldRow } from './waitlist.pg.ts';

/** Rows of `sql` as one JSON array (empty, not null, when there are none), in its order. */
const rowsOf = (sql: string) => `(select coalesce(json_agg(x), '[]') from (${sql}) x)`;

/**
 * The booking's reads as one statement: each part is the very query of the store it stands for, its rows come back
 * as JSON with the same column names, and that store's mapper reads them. JSON carries dates and times as the text
 * the mappers take, and a timestamp as text (the slot's `retired_at`, which is only tested for null).
 */
export function placementStore(db: Queryable): PlacementStore {
  return {
    // The patient's subquery waits for the doctor's lock (its filter reads the locked row first): every booking locks
    // the doctor, then the patient, as they did in two statements, so two bookings never lock them in turn and deadlock.
    lock: async (doctorId, patientId) => {
      const row = onlyRow(
        await db.query<{ doctor: boolean; has_email: boolean | null }>(
          `with doctor as (select id from doctors where id = $1 and active for no key update)
           select exists (select 1 from doctor) as doctor,
             (select u.email is not null from patients p join users u on u.id = p.user_id
              where p.id = $2 and exists (select 1 from doctor) for no key update of p) as has_email`,
          [doctorId, patientId],
        ),
      );
      return { doctor: row.doctor, patient: row.has_email === null ? undefined : { hasEmail: row.has_email } };
    },
    facts: async (ask) => {
      const row = onlyRow(
        await db.query<{
          slot: WeeklySlotRow | null;
          time_off: TimeOffRow[];
          doctor_booked: BookedTimeRow[];
          holds: HoldRow[];
          patient_booked: BookedTimeRow[];
          patient_bookings: PatientBookingsRow;
        }>(
          `select
             (select row_to_json(x) from (select ${SLOT_COLUMNS} from ${SLOT_FROM} where s.id = $2) x) as slot,
             ${rowsOf(coveringSql('$1', '$3', '$3'))} as time_off,
             ${rowsOf(bookedTimesSql('doctor_id', '$1', '$3', '$5'))} as doctor_booked,
             ${rowsOf(holdsSql('$1', '$3', '$3'))} as holds,
             ${rowsOf(bookedTimesSql('patient_id', '$4', '$3', '$5'))} as patient_booked,
             (select row_to_json(x) from (${patientBookingsSql('$4', '$1', '$3', '$6', '$5')}) x) as patient_bookings`,
          [ask.doctorId, ask.scheduleId, ask.date, ask.patientId, ask.except ?? null, ask.today],
        ),
      );
      return {
        slot: row.slot ? toWeeklySlot(row.slot) : undefined,
        timeOff: row.time_off.map(toTimeOff),
        doctorBooked: row.doctor_booked.map(toBookedTime),
        holds: row.holds.map(toHold),
        patientBooked: row.patient_booked.map(toBookedTime),
        patientBookings: toPatientBookings(row.patient_bookings),
      };
    },
  };
}
