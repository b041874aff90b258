import { listEntry, recordingRefusals, refusal, type AuditEntry } from '../audit/audit.ts';
import { ownDoctorId, ownPatientId, type Actor } from '../shared/actor.ts';
import { addDays, clinicDateTime, isoWeekday } from '../shared/clock.ts';
import { DomainError, conflict, invalid, notFound } from '../shared/errors.ts';
import { pageRequest } from '../shared/pagination.ts';
import { Validator, asRecord, pathId, type RawId } from '../shared/validate.ts';
import { noticeBooked, noticeCancelled } from './notices.ts';
import type { AppointmentFilter, BookingLimits, SchedulingDeps, SchedulingTxDeps } from './ports.ts';
import {
  APPOINTMENT_STATUSES,
  MAX_DAYS_AHEAD,
  NEXT_FREE_DAYS,
  SLOT_TAKEN,
  appointmentJson,
  dateOutOfRange,
  freeDays,
  hasStarted,
  overlaps,
  periodOf,
  readPattern,
  slotStatus,
  weeklySlotJson,
  type Appointment,
  type ClinicMoment,
  type ListedAppointmentJson,
  type Period,
  type SlotStatus,
  type WeeklySlot,
  type WeeklySlotJson,
} from './scheduling.ts';


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
): Promise<AvailableSlotsJson> {
  const doctorId = pathId(rawDoctorId, 'Doctor');
  const now = nowInClinic(deps);
  const v = new Validator(asRecord(query));
  const date = readDate(v, now.date);
  v.done();
  if (!(await deps.schedules.isActiveDoctor(doctorId))) throw notFound('Doctor');
  const [slots, bookings] = await Promise.all([
    deps.schedules.currentSlots(doctorId, isoWeekday(date)),
    deps.appointments.bookedTimes({ doctorId }, date),
  ]);
  return {
    date,
    available_appointments: slots.map((slot) => slotJson(slot, slotStatus(slot, date, now, bookings))),
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
  doctor_id: number;
  /** The first days with a free slot, each with only its free slots. */
  days: AvailableSlotsJson[];
}

/**
 * The first few days from `from` (default today) to the end of the booking window on which the doctor has a free
 * slot: what the booking page offers when the chosen day is full or over.
 */
export async function nextAvailable(deps: SchedulingDeps, query: Record<string, unknown>): Promise<NextAvailableJson> {
  const now = nowInClinic(deps);
  const v = new Validator(asRecord(query));
  const doctorId = v.id('doctor_id');
  const from = readDate(v, now.date, 'from');
  v.done();
  if (!(await deps.schedules.isActiveDoctor(doctorId))) throw notFound('Doctor');
  const to = addDays(now.date, MAX_DAYS_AHEAD);
  const [pattern, bookings] = await Promise.all([deps.schedules.currentSlots(doctorId), deps.appointments.doctorBookings(doctorId, from, to)]);
  return {
    doctor_id: doctorId,
    days: freeDays(pattern, bookings, { from, to, count: NEXT_FREE_DAYS }, now).map((day) => ({
      date: day.date,
      available_appointments: day.slots.map((slot) => slotJson(slot, 'available')),
    })),
  };
}

function refuseOverLimit(booked: { withDoctorThatDay: number; upcoming: number }, limits: BookingLimits): void {
  if (booked.withDoctorThatDay >= limits.perDoctorPerDay) {
    const visits = limits.perDoctorPerDay === 1 ? 'an appointment' : `${limits.perDoctorPerDay} appointments`;
    throw conflict('booking_limit', `You already have ${visits} with this doctor on that day`, { schedule_id: ['is over your booking limit'] });
  }
  if (booked.upcoming >= limits.upcoming) {
    throw conflict('booking_limit', `You already have ${limits.upcoming} upcoming appointments; cancel one before booking another`, {
      schedule_id: ['is over your booking limit'],
    });
  }
}

/**
 * Books a slot for the signed-in patient. The doctor's and the patient's rows are locked first, so the overlap
 * checks below see every booking committed before; the slot's unique index stays the last word on a taken slot.
 */
export async function book(deps: SchedulingDeps, body: unknown, actor: Actor) {
  const patientId = patientOf(actor);
  const now = nowInClinic(deps);
  const v = new Validator(asRecord(body));
  const doctorId = v.id('doctor_id');
  const scheduleId = v.id('schedule_id');
  const date = readDate(v, now.date);
  v.done();

  const appointment = await deps.transaction(async (tx) => {
    if (!(await tx.schedules.lockDoctor(doctorId))) throw notFound('Doctor');
    const slot = await tx.schedules.find(scheduleId);
    if (!slot || slot.doctorId !== doctorId || slot.retired) throw invalid({ schedule_id: ["is not one of this doctor's current slots"] });
    if (slot.weekday !== isoWeekday(date)) throw invalid({ schedule_id: [`is not a slot on ${date}'s weekday`] });
    if (hasStarted(date, slot.startTime, now)) throw invalid({ schedule_id: ['has already started; choose a later slot'] });
    if ((await tx.appointments.bookedTimes({ doctorId }, date)).some((b) => overlaps(b, slot))) {
      throw conflict(SLOT_TAKEN.code, SLOT_TAKEN.message, { [SLOT_TAKEN.field]: [SLOT_TAKEN.message] });
    }
    await tx.appointments.lockPatient(patientId);
    if ((await tx.appointments.bookedTimes({ patientId }, date)).some((b) => overlaps(b, slot))) {
      throw conflict('patient_busy', 'You already have an appointment at this time on that day', { schedule_id: ['overlaps another appointment of yours'] });
    }
    refuseOverLimit(await tx.appointments.patientBookings(patientId, doctorId, date, now.date), deps.bookingLimits);
    const booked = await tx.appointments.insert({ patientId, scheduleId, date });
    await tx.audit.record(appointmentEntry('book', booked.id, patientId, actor));
    await noticeBooked(deps, tx, booked, deps.clock.now());
    return booked;
  });
  return appointmentJson(appointment);
}

// --- cancelling

const appointmentEntry = (action: string, id: number, patientId: number, actor: Actor | null, details?: Record<string, unknown>): AuditEntry => ({
  actor,
  action,
  entity: 'appointment',
  entityId: id,
  patientId,
  requestId: actor?.requestId,
  details,
});

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
  if (found.status !== 'scheduled') {
    throw conflict('not_scheduled', `This appointment is ${found.status} and can no longer be cancelled`);
  }
  await tx.appointments.cancel(found.id, deps.clock.now());
  await tx.audit.record(appointmentEntry('cancel', found.id, found.patient.id, actor, details));
  await noticeCancelled(deps, tx, found, deps.clock.now());
  const cancelled = await tx.appointments.find(found.id);
  if (!cancelled) throw notFound('Appointment');
  return cancelled;
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

/** An admin cancels any scheduled appointment, past ones too (a visit that never happened). */
export const cancelAppointment = (deps: SchedulingDeps, rawId: RawId, actor: Actor) => cancelIf(deps, rawId, actor, () => {});

// --- lists

/** A page of `owner`'s appointments; `audited` names the staff member whose reading of it is recorded. */
async function appointmentPage(deps: SchedulingDeps, owner: AppointmentFilter, query: Record<string, unknown>, audited?: Actor) {
  const v = new Validator(asRecord(query));
  const status = v.oneOf('status', APPOINTMENT_STATUSES, { optional: true });
  v.done();
  const now = nowInClinic(deps);
  const request = pageRequest(query);
  const page = await deps.appointments.list({ ...owner, status }, request, now.date);
  if (audited) await deps.audit.record(listEntry(audited, 'appointment', request, { status }));
  return { ...page, items: page.items.map((a): ListedAppointmentJson => ({ ...appointmentJson(a), has_started: hasStarted(a.date, a.startTime, now) })) };
}

/** The patient's own appointments, upcoming first; `q` searches doctor, department and room. */
export const listMyAppointments = (deps: SchedulingDeps, query: Record<string, unknown>, actor: Actor) =>
  appointmentPage(deps, { patientId: patientOf(actor) }, query);

/** The doctor's own appointments, upcoming first; `q` searches the patient's name and email. Audited. */
export async function listDoctorAppointments(deps: SchedulingDeps, query: Record<string, unknown>, actor: Actor) {
  return appointmentPage(deps, { doctorId: ownDoctorId(actor, 'Only doctors have a list of their own appointments') }, query, actor);
}
