import { requireDesk, type Actor } from '../shared/actor.ts';
import { addDays, isoWeekday } from '../shared/clock.ts';
import { notFound } from '../shared/errors.ts';
import { readFields } from '../shared/read-fields.ts';
import { Validator, asRecord, pathId, type RawId } from '../shared/validate.ts';
import { checkPlacement, takeSlot, type Booker, type Placement } from './booking.ts';
import type { SchedulingDeps } from './ports.ts';
import {
  MAX_DAYS_AHEAD,
  NEXT_FREE_DAYS,
  freeDays,
  openSlots,
  periodOf,
  slotStatus,
  type ClinicMoment,
  type SlotStatus,
  type WeeklySlot,
} from './scheduling.ts';
import { choiceOf, inBookingWindow, nowInClinic, patientOf } from './use-case-input.ts';
import { heldFromOthers } from './waitlist.ts';
import { appointmentJson } from './appointment-answers.ts';
import { doctorWeek } from './doctor-week.ts';
import {
  AvailableSlotsQuery,
  BookRequest,
  DeskBookRequest,
  NextAvailableQuery,
  type AvailableSlotsJson,
  type NextAvailableJson,
  type NextFreeJson,
  type SlotJson,
} from './scheduling-shapes.ts';

/**
 * A doctor's slots on a date (default today) that no leave or closure takes away, each available, booked or past,
 * split AM/PM at noon.
 */
export async function availableSlots(
  deps: SchedulingDeps,
  rawDoctorId: RawId,
  query: Record<string, unknown>,
  actor: Actor,
): Promise<AvailableSlotsJson> {
  const doctorId = pathId(rawDoctorId, 'Doctor');
  const now = nowInClinic(deps);
  const v = new Validator(asRecord(query));
  const date = inBookingWindow(v, readFields(v, AvailableSlotsQuery).date, now.date);
  v.done();
  if (!(await deps.schedules.isActiveDoctor(doctorId))) throw notFound('Doctor');
  const [slots, bookings, holds, timeOff] = await Promise.all([
    deps.schedules.currentSlots(doctorId, isoWeekday(date)),
    deps.appointments.bookedTimes({ doctorId }, date),
    deps.waitlist.holds(doctorId, date, date),
    deps.timeOff.covering(doctorId, date, date),
  ]);
  const taken = [...bookings, ...heldFromOthers(holds, actor.patientId)];
  return {
    date,
    available_appointments: openSlots(slots, date, timeOff).map((slot) =>
      slotJson(slot, slotStatus(slot, date, now, taken)),
    ),
  };
}

const slotJson = (slot: WeeklySlot, status: SlotStatus): SlotJson => ({
  schedule_id: slot.id,
  start_time: slot.startTime,
  end_time: slot.endTime,
  status,
  period: periodOf(slot.startTime),
});

/**
 * The first few days from `from` (default today) to the end of the booking window on which the doctor, or any
 * doctor of the department, has a free slot: what the booking page and the desk offer when a day is full or over.
 */
export async function nextAvailable(
  deps: SchedulingDeps,
  query: Record<string, unknown>,
  actor: Actor,
): Promise<NextAvailableJson> {
  const now = nowInClinic(deps);
  const input = asRecord(query);
  const v = new Validator(input);
  const request = readFields(v, NextAvailableQuery);
  // Which one was asked for is what was given, even blank: a blank one is then missing.
  const byDepartment = input.department_id !== undefined;
  const asked = byDepartment ? 'department_id' : 'doctor_id';
  if (byDepartment && input.doctor_id !== undefined)
    v.fail('department_id', 'must not be given together with doctor_id');
  else if (request[asked] === undefined && !v.failed(asked)) v.fail(asked, 'is required');
  const doctorId = byDepartment ? undefined : request.doctor_id;
  const departmentId = byDepartment ? request.department_id : undefined;
  const from = inBookingWindow(v, request.from, now.date, 'from');
  v.done();
  const range = { from, to: addDays(now.date, MAX_DAYS_AHEAD), count: NEXT_FREE_DAYS };
  const doctors = departmentId === undefined ? undefined : await deps.schedules.departmentDoctors(departmentId);
  if (doctorId !== undefined) {
    if (!(await deps.schedules.isActiveDoctor(doctorId))) throw notFound('Doctor');
    const days = await doctorFreeDays(deps, doctorId, range, now, actor.patientId);
    return {
      doctor_id: doctorId,
      days: days.map((day) => ({
        date: day.date,
        available_appointments: day.slots.map((slot) => slotJson(slot, 'available')),
      })),
    };
  }
  if (!doctors || departmentId === undefined) throw notFound('Department');
  const each = await Promise.all(
    doctors.map(async (doctor) => ({
      doctor,
      days: await doctorFreeDays(deps, doctor.id, range, now, actor.patientId),
    })),
  );
  const dates = [...new Set(each.flatMap((d) => d.days.map((day) => day.date)))].sort().slice(0, NEXT_FREE_DAYS);
  return {
    department_id: departmentId,
    days: dates.map((date) => ({
      date,
      available_appointments: each
        .flatMap(({ doctor, days }) =>
          (days.find((day) => day.date === date)?.slots ?? []).map((slot) => ({
            ...slotJson(slot, 'available'),
            doctor,
          })),
        )
        .sort((a, b) => a.start_time.localeCompare(b.start_time) || a.doctor.name.localeCompare(b.doctor.name)),
    })),
  };
}

/** How many doctors of one answer get their next free time worked out: a page of cards, not a whole export. */
export const NEXT_FREE_DOCTORS = 60;

/**
 * Each doctor's first free slot from now to the end of the booking window (null when none), for at most
 * NEXT_FREE_DOCTORS of them: the doctors list's cards show it without asking once per card.
 */
export async function nextFreeTimes(
  deps: SchedulingDeps,
  doctorIds: number[],
  actor: Actor,
): Promise<Map<number, NextFreeJson | null>> {
  const now = nowInClinic(deps);
  const range = { from: now.date, to: addDays(now.date, MAX_DAYS_AHEAD), count: 1 };
  const firsts = await Promise.all(
    doctorIds.slice(0, NEXT_FREE_DOCTORS).map(async (doctorId) => {
      const [day] = await doctorFreeDays(deps, doctorId, range, now, actor.patientId);
      const slot = day?.slots[0];
      return [
        doctorId,
        day && slot ? { date: day.date, start_time: slot.startTime, end_time: slot.endTime } : null,
      ] as const;
    }),
  );
  return new Map(firsts);
}

/**
 * The doctor's free days in `range`; a slot in a leave or closure, or one a waitlist offer holds for someone else
 * than `patientId`, is not free.
 */
async function doctorFreeDays(
  deps: SchedulingDeps,
  doctorId: number,
  range: { from: string; to: string; count: number },
  now: ClinicMoment,
  patientId?: number,
) {
  const { pattern, taken, timeOff } = await doctorWeek(deps, doctorId, range, patientId);
  return freeDays(pattern, taken, timeOff, range, now);
}

async function bookPlacement(deps: SchedulingDeps, to: Placement, who: Booker) {
  const now = nowInClinic(deps);
  const appointment = await deps.transaction(async (tx) => {
    const { ownHold } = await checkPlacement(tx, to, who, now);
    return takeSlot(deps, tx, { patientId: who.patientId, ...to, actor: who.actor, hold: ownHold });
  });
  return appointmentJson(appointment);
}

/** Books a slot for the signed-in patient, within the booking limits. */
export async function book(deps: SchedulingDeps, body: unknown, actor: Actor) {
  const patientId = patientOf(actor);
  const v = new Validator(asRecord(body));
  const request = readFields(v, BookRequest);
  const to = { doctorId: request.doctor_id, ...choiceOf(v, request, nowInClinic(deps).date) };
  v.done();
  return bookPlacement(deps, to, { actor, patientId, limits: deps.bookingLimits });
}

/** The desk (reception or an admin) books a slot for a patient, in person or on the phone: no booking limits. */
export async function bookForPatient(deps: SchedulingDeps, body: unknown, actor: Actor) {
  requireDesk(actor);
  const v = new Validator(asRecord(body));
  const request = readFields(v, DeskBookRequest);
  const to = { doctorId: request.doctor_id, ...choiceOf(v, request, nowInClinic(deps).date) };
  v.done();
  return bookPlacement(deps, to, { actor, patientId: request.patient_id });
}
