import { listEntry, recordingRefusals, refusal } from '../audit/audit.ts';
import { isDesk, ownDoctorId, ownPatientId, requireDesk, type Actor } from '../shared/actor.ts';
import { addDays, clinicDateTime, isoWeekday } from '../shared/clock.ts';
import { DomainError, conflict, notFound } from '../shared/errors.ts';
import { pageRequest } from '../shared/pagination.ts';
import { Validator, asRecord, pathId, type RawId } from '../shared/validate.ts';
import { appointmentEntry, checkPlacement, fulfilHold, takeSlot, type Booker, type Placement } from './booking.ts';
import { canRecordNow, deskTransition, transition } from './lifecycle.ts';
import { noticeCancelled, noticeRescheduled } from './notices.ts';
import type { AppointmentFilter, SchedulingDeps, SlotChoice, SchedulingTxDeps } from './ports.ts';
import {
  AGENDA_VIEWS,
  APPOINTMENT_STATUSES,
  MAX_DAYS_AHEAD,
  NEXT_FREE_DAYS,
  agendaDates,
  appointmentJson,
  dateOutOfRange,
  freeDays,
  hasStarted,
  periodOf,
  readPattern,
  slotStatus,
  weeklySlotJson,
  type AgendaJson,
  type AgendaVisitJson,
  type Appointment,
  type ClinicMoment,
  type ListedAppointmentJson,
  type Period,
  type SlotStatus,
  type WeeklySlot,
  type WeeklySlotJson,
} from './scheduling.ts';
import { slotFreed } from './slot-offers.ts';
import { heldFromOthers } from './waitlist.ts';

const nowInClinic = (deps: SchedulingDeps): ClinicMoment => clinicDateTime(deps.clock.now(), deps.timeZone);

/** `field` (default today) checked against the booking window, its problems added to `v`. */
function readDate(v: Validator, today: string, field = 'date'): string {
  const date = v.date(field, { optional: true }) ?? today;
  const problem = dateOutOfRange(date, today);
  if (problem) v.fail(field, problem);
  return date;
}

const patientOf = (actor: Actor) => ownPatientId(actor, 'Only patients have appointments of their own');

// --- weekly patterns (admin)

/** A doctor's weekly pattern, as the admin's schedule dialog shows it. */
export interface ScheduleJson {
  slots: WeeklySlotJson[];
}

const scheduleOf = async (tx: SchedulingTxDeps, doctorId: number): Promise<ScheduleJson> => ({
  slots: (await tx.schedules.currentSlots(doctorId)).map(weeklySlotJson),
});

export async function getSchedule(deps: SchedulingDeps, rawDoctorId: RawId) {
  const doctorId = pathId(rawDoctorId, 'Doctor');
  if (!(await deps.schedules.isActiveDoctor(doctorId))) throw notFound('Doctor');
  return scheduleOf(deps, doctorId);
}

/**
 * Replaces a doctor's weekly pattern with explicit slots or working hours plus a slot length (`medora schedules
 * set` sends the latter). Appointments already booked keep their slot and times.
 */
export async function replaceSchedule(deps: SchedulingDeps, rawDoctorId: RawId, body: unknown, actor: Actor) {
  const doctorId = pathId(rawDoctorId, 'Doctor');
  const plan = readPattern(body);
  return deps.transaction(async (tx) => {
    if (!(await tx.schedules.lockDoctor(doctorId))) throw notFound('Doctor');
    await tx.schedules.replace(doctorId, plan, deps.clock.now());
    await tx.audit.record({ actor, action: 'update', entity: 'schedule', entityId: doctorId, requestId: actor.requestId, details: { slots: plan.length } });
    return scheduleOf(tx, doctorId);
  });
}

// --- available slots and booking

export interface SlotJson {
  schedule_id: number;
  start_time: string;
  end_time: string;
  status: SlotStatus;
  period: Period;
}

export interface AvailableSlotsJson {
  date: string;
  available_appointments: SlotJson[];
}

/** A doctor's slots on a date (default today), each available, booked or past, split AM/PM at noon. */
export async function availableSlots(
  deps: SchedulingDeps,
  rawDoctorId: RawId,
  query: Record<string, unknown>,
  actor: Actor,
): Promise<AvailableSlotsJson> {
  const doctorId = pathId(rawDoctorId, 'Doctor');
  const now = nowInClinic(deps);
  const v = new Validator(asRecord(query));
  const date = readDate(v, now.date);
  v.done();
  if (!(await deps.schedules.isActiveDoctor(doctorId))) throw notFound('Doctor');
  const [slots, bookings, holds] = await Promise.all([
    deps.schedules.currentSlots(doctorId, isoWeekday(date)),
    deps.appointments.bookedTimes({ doctorId }, date),
    deps.waitlist.holds(doctorId, date, date),
  ]);
  const taken = [...bookings, ...heldFromOthers(holds, actor.patientId)];
  return {
    date,
    available_appointments: slots.map((slot) => slotJson(slot, slotStatus(slot, date, now, taken))),
  };
}

const slotJson = (slot: WeeklySlot, status: SlotStatus): SlotJson => ({
  schedule_id: slot.id,
  start_time: slot.startTime,
  end_time: slot.endTime,
  status,
  period: periodOf(slot.startTime),
});

export interface NextAvailableJson {
  doctor_id?: number;
  department_id?: number;
  /** The first days with a free slot, each with only its free slots; for a department, each slot names its doctor. */
  days: AvailableSlotsJson[];
}

/**
 * The first few days from `from` (default today) to the end of the booking window on which the doctor, or any
 * doctor of the department, has a free slot: what the booking page and the desk offer when a day is full or over.
 */
export async function nextAvailable(deps: SchedulingDeps, query: Record<string, unknown>, actor: Actor): Promise<NextAvailableJson> {
  const now = nowInClinic(deps);
  const input = asRecord(query);
  const v = new Validator(input);
  const byDepartment = input.department_id !== undefined;
  if (byDepartment && input.doctor_id !== undefined) v.fail('department_id', 'must not be given together with doctor_id');
  const doctorId = byDepartment ? undefined : v.id('doctor_id');
  const departmentId = byDepartment ? v.id('department_id') : undefined;
  const from = readDate(v, now.date, 'from');
  v.done();
  const range = { from, to: addDays(now.date, MAX_DAYS_AHEAD), count: NEXT_FREE_DAYS };
  const doctors = departmentId === undefined ? undefined : await deps.schedules.departmentDoctors(departmentId);
  if (doctorId !== undefined) {
    if (!(await deps.schedules.isActiveDoctor(doctorId))) throw notFound('Doctor');
    const days = await doctorFreeDays(deps, doctorId, range, now, actor.patientId);
    return { doctor_id: doctorId, days: days.map((day) => ({ date: day.date, available_appointments: day.slots.map((slot) => slotJson(slot, 'available')) })) };
  }
  if (!doctors) throw notFound('Department');
  const each = await Promise.all(doctors.map(async (doctor) => ({ doctor, days: await doctorFreeDays(deps, doctor.id, range, now, actor.patientId) })));
  const dates = [...new Set(each.flatMap((d) => d.days.map((day) => day.date)))].sort().slice(0, NEXT_FREE_DAYS);
  return {
    department_id: departmentId,
    days: dates.map((date) => ({
      date,
      available_appointments: each
        .flatMap(({ doctor, days }) => (days.find((day) => day.date === date)?.slots ?? []).map((slot) => ({ ...slotJson(slot, 'available'), doctor })))
        .sort((a, b) => a.start_time.localeCompare(b.start_time) || a.doctor.name.localeCompare(b.doctor.name)),
    })),
  };
}

/** The doctor's free days in `range`; a slot a waitlist offer holds for someone else than `patientId` is not free. */
async function doctorFreeDays(deps: SchedulingDeps, doctorId: number, range: { from: string; to: string; count: number }, now: ClinicMoment, patientId?: number) {
  const [pattern, bookings, holds] = await Promise.all([
    deps.schedules.currentSlots(doctorId),
    deps.appointments.doctorBookings(doctorId, range.from, range.to),
    deps.waitlist.holds(doctorId, range.from, range.to),
  ]);
  return freeDays(pattern, [...bookings, ...heldFromOthers(holds, patientId)], range, now);
}

const readChoice = (v: Validator, today: string): SlotChoice => ({ scheduleId: v.id('schedule_id'), date: readDate(v, today) });

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
  const to = { doctorId: v.id('doctor_id'), ...readChoice(v, nowInClinic(deps).date) };
  v.done();
  return bookPlacement(deps, to, { actor, patientId, limits: deps.bookingLimits });
}

/** The desk (reception or an admin) books a slot for a patient, in person or on the phone: no booking limits. */
export async function bookForPatient(deps: SchedulingDeps, body: unknown, actor: Actor) {
  requireDesk(actor);
  const v = new Validator(asRecord(body));
  const patientId = v.id('patient_id');
  const to = { doctorId: v.id('doctor_id'), ...readChoice(v, nowInClinic(deps).date) };
  v.done();
  return bookPlacement(deps, to, { actor, patientId });
}

// --- moving and cancelling

const placeOf = (a: Appointment) => ({ doctor_id: a.doctor.id, date: a.date, start_time: a.startTime, end_time: a.endTime });

/**
 * Moves an appointment to another free slot, of its doctor or another, in one transaction: the new slot is taken
 * and the old one freed together, the move audited with both and the patient told. A patient moves their own
 * visit before it starts, within the booking limits; the desk moves anyone's scheduled visit.
 */
export async function reschedule(deps: SchedulingDeps, rawId: RawId, body: unknown, actor: Actor) {
  const id = pathId(rawId, 'Appointment');
  const desk = isDesk(actor);
  const ownPatient = desk ? undefined : patientOf(actor);
  const now = nowInClinic(deps);
  const v = new Validator(asRecord(body));
  const doctorId = v.id('doctor_id', { optional: true });
  const to = readChoice(v, now.date);
  v.done();
  const moved = await recordingRefusals(deps.audit, () => deps.transaction(async (tx) => {
    const from = await tx.appointments.lock(id);
    if (!from || (ownPatient !== undefined && from.patient.id !== ownPatient)) {
      throw refusal('Appointment', actor, { entity: 'appointment', entityId: id, patientId: from?.patient.id, attempt: 'reschedule' });
    }
    if (from.status !== 'scheduled') throw conflict('invalid_transition', `This appointment is ${from.status.replace('_', ' ')} and cannot be moved`);
    if (!desk && hasStarted(from.date, from.startTime, now)) {
      throw conflict('appointment_started', 'This appointment has already started and can no longer be moved');
    }
    const placement = { ...to, doctorId: doctorId ?? from.doctor.id };
    const { ownHold } = await checkPlacement(tx, placement, { actor, patientId: from.patient.id, limits: desk ? undefined : deps.bookingLimits, moving: id }, now);
    const after = await tx.appointments.move(id, placement, deps.clock.now());
    if (ownHold) await fulfilHold(deps, tx, ownHold, id);
    await slotFreed(deps, tx, { doctorId: from.doctor.id, date: from.date, startTime: from.startTime });
    await tx.audit.record(appointmentEntry('appointment_rescheduled', id, from.patient.id, actor, { from: placeOf(from), to: placeOf(after) }));
    await noticeRescheduled(deps, tx, from, after, deps.clock.now());
    return after;
  }));
  return appointmentJson(moved);
}

/** Cancels the appointment if `refuse` finds nothing against it (or its absence); its slot becomes bookable again. */
async function cancelIf(deps: SchedulingDeps, rawId: RawId, actor: Actor, refuse: (id: number, a: Appointment | undefined, now: ClinicMoment) => void) {
  const id = pathId(rawId, 'Appointment');
  const now = nowInClinic(deps);
  const appointment = await recordingRefusals(deps.audit, () => deps.transaction(async (tx) => {
    const found = await tx.appointments.lock(id);
    refuse(id, found, now);
    if (!found) throw notFound('Appointment');
    return cancelLocked(deps, tx, found, actor);
  }));
  return appointmentJson(appointment);
}

/** Cancels an appointment whose row the transaction holds, with its audit row and its messages. */
async function cancelLocked(deps: SchedulingDeps, tx: SchedulingTxDeps, found: Appointment, actor: Actor | null, details?: Record<string, unknown>) {
  const status = transition(found.status, 'cancel');
  await tx.appointments.setStatus(found.id, status, deps.clock.now());
  await slotFreed(deps, tx, { doctorId: found.doctor.id, date: found.date, startTime: found.startTime });
  await tx.audit.record(appointmentEntry('cancel', found.id, found.patient.id, actor, { from: found.status, ...details }));
  await noticeCancelled(deps, tx, found, deps.clock.now());
  return { ...found, status };
}

const refuseStarted = (a: Appointment, now: ClinicMoment) => {
  if (a.status === 'scheduled' && hasStarted(a.date, a.startTime, now)) {
    throw conflict('appointment_started', 'This appointment has already started and can no longer be cancelled');
  }
};

/** A patient cancels their own appointment before it starts; anyone else's is not found. */
export async function cancelMyAppointment(deps: SchedulingDeps, rawId: RawId, actor: Actor) {
  const patientId = patientOf(actor);
  return cancelIf(deps, rawId, actor, (id, a, now) => {
    if (a?.patient.id !== patientId) {
      throw refusal('Appointment', actor, { entity: 'appointment', entityId: id, patientId: a?.patient.id, attempt: 'cancel' });
    }
    refuseStarted(a, now);
  });
}

// --- the desk: checking in and no-shows

/** Reception (or an admin) checks a patient in on the visit's day, or marks a started visit a no-show; audited. */
async function deskEvent(deps: SchedulingDeps, rawId: RawId, actor: Actor, event: 'check_in' | 'no_show') {
  requireDesk(actor);
  const id = pathId(rawId, 'Appointment');
  const now = nowInClinic(deps);
  const changed = await deps.transaction(async (tx) => {
    const found = await tx.appointments.lock(id);
    if (!found) throw notFound('Appointment');
    const status = deskTransition(found, event, now);
    await tx.appointments.setStatus(id, status, deps.clock.now());
    await tx.audit.record(appointmentEntry(event, id, found.patient.id, actor, { from: found.status, to: status }));
    return { ...found, status };
  });
  return appointmentJson(changed);
}

export const checkIn = (deps: SchedulingDeps, rawId: RawId, actor: Actor) => deskEvent(deps, rawId, actor, 'check_in');
export const markNoShow = (deps: SchedulingDeps, rawId: RawId, actor: Actor) => deskEvent(deps, rawId, actor, 'no_show');

// --- the reminder's one-click cancel link

const LINK_INVALID = 'This link has expired or was used already. Sign in to see your appointments.';
const linkInvalid = () => new DomainError('invalid', 'cancel_link_invalid', LINK_INVALID, { token: [LINK_INVALID] });

function readLinkToken(body: unknown): string {
  const v = new Validator(asRecord(body));
  const token = v.text('token', { max: 200 });
  v.done();
  return token;
}

/** What a cancel link would cancel, shown on its confirmation page before anything changes. */
export async function previewCancelLink(deps: SchedulingDeps, body: unknown) {
  const link = await deps.links.peek('cancel_appointment', readLinkToken(body), deps.clock.now());
  const appointment = link?.appointmentId ? await deps.appointments.find(link.appointmentId) : undefined;
  if (!appointment || appointment.status !== 'scheduled') throw linkInvalid();
  return { appointment: appointmentJson(appointment) };
}

/** Follows a reminder's cancel link: once, before the visit starts, without signing in. */
export async function cancelByLink(deps: SchedulingDeps, body: unknown) {
  const token = readLinkToken(body);
  const now = nowInClinic(deps);
  const appointment = await deps.transaction(async (tx) => {
    const link = await tx.links.use('cancel_appointment', token, deps.clock.now());
    const found = link?.appointmentId ? await tx.appointments.lock(link.appointmentId) : undefined;
    if (!found || found.status !== 'scheduled') throw linkInvalid();
    refuseStarted(found, now);
    return cancelLocked(deps, tx, found, null, { via: 'reminder link' });
  });
  return { appointment: appointmentJson(appointment) };
}

/** The desk (reception or an admin) cancels any scheduled or checked-in appointment, past ones too (a visit that never happened). */
export function cancelAppointment(deps: SchedulingDeps, rawId: RawId, actor: Actor) {
  requireDesk(actor);
  return cancelIf(deps, rawId, actor, () => {});
}

// --- lists

/** A page of `owner`'s appointments; `audited` names the staff member whose reading of it is recorded. */
async function appointmentPage(deps: SchedulingDeps, owner: AppointmentFilter, query: Record<string, unknown>, audited?: Actor) {
  const v = new Validator(asRecord(query));
  const status = v.oneOf('status', APPOINTMENT_STATUSES, { optional: true });
  v.done();
  const now = nowInClinic(deps);
  const request = pageRequest(query);
  const page = await deps.appointments.list({ ...owner, status }, request, now.date);
  if (audited) await deps.audit.record(listEntry(audited, 'appointment', request, { status, ...(owner.date ? { date: owner.date } : {}), ...(owner.patientId !== undefined && audited.role !== 'patient' ? { patient_id: owner.patientId } : {}) }));
  return { ...page, items: page.items.map((a): ListedAppointmentJson => ({ ...appointmentJson(a), has_started: hasStarted(a.date, a.startTime, now) })) };
}

/**
 * The doctor's own day (or its week) as the agenda shows it: every visit not cancelled, in time order, grouped
 * by date, each saying whether its record can be written now. Audited like the doctor's list.
 */
export async function doctorAgenda(deps: SchedulingDeps, query: Record<string, unknown>, actor: Actor): Promise<AgendaJson> {
  const doctorId = ownDoctorId(actor, 'Only doctors have an agenda');
  const now = nowInClinic(deps);
  const v = new Validator(asRecord(query));
  const date = v.date('date', { optional: true }) ?? now.date;
  const view = v.oneOf('view', AGENDA_VIEWS, { optional: true }) ?? 'day';
  v.done();
  const { from, to, dates, step } = agendaDates(date, view);
  const visits = await deps.appointments.agenda(doctorId, from, to);
  await deps.audit.record({ actor, action: 'list', entity: 'appointment', details: { view, from, to } });
  return {
    view,
    date,
    today: now.date,
    previous: addDays(date, -step),
    next: addDays(date, step),
    days: dates.map((day) => ({
      date: day,
      visits: visits
        .filter((a) => a.date === day)
        .map((a): AgendaVisitJson => ({ ...appointmentJson(a), has_started: hasStarted(a.date, a.startTime, now), can_record: canRecordNow(a, now) })),
    })),
  };
}

/** The patient's own appointments, upcoming first; `q` searches doctor, department and room. */
export const listMyAppointments = (deps: SchedulingDeps, query: Record<string, unknown>, actor: Actor) =>
  appointmentPage(deps, { patientId: patientOf(actor) }, query);

/**
 * The desk's appointments: a day's (default today) at the front desk, or with `patient_id` all of one patient's;
 * upcoming first, `q` searching names. Audited.
 */
export async function listDeskAppointments(deps: SchedulingDeps, query: Record<string, unknown>, actor: Actor) {
  requireDesk(actor);
  const v = new Validator(asRecord(query));
  const patientId = v.id('patient_id', { optional: true });
  const day = v.date('date', { optional: true });
  v.done();
  const owner = patientId !== undefined ? { patientId, date: day } : { date: day ?? nowInClinic(deps).date };
  return appointmentPage(deps, owner, query, actor);
}

/** The doctor's own appointments, upcoming first; `q` searches the patient's name and email. Audited. */
export async function listDoctorAppointments(deps: SchedulingDeps, query: Record<string, unknown>, actor: Actor) {
  return appointmentPage(deps, { doctorId: ownDoctorId(actor, 'Only doctors have a list of their own appointments') }, query, actor);
}
