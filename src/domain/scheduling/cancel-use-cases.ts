import { recordingRefusals, refusal } from '../audit/audit.ts';
import { isDesk, requireDesk, type Actor } from '../shared/actor.ts';
import { DomainError, conflict, notFound } from '../shared/errors.ts';
import { readFields, readInput } from '../shared/read-fields.ts';
import { Validator, asRecord, pathId, type RawId } from '../shared/validate.ts';
import { appointmentEntry, checkPlacement, fulfilHold } from './booking.ts';
import { transition } from './lifecycle.ts';
import { noticeCancelled, noticeRescheduled } from './notices.ts';
import type { SchedulingDeps, SchedulingTxDeps } from './ports.ts';
import { hasStarted, type Appointment, type ClinicMoment } from './scheduling.ts';
import { slotFreed } from './slot-offers.ts';
import { choiceOf, nowInClinic, patientOf } from './use-case-input.ts';
import { CancelLinkRequest, RescheduleRequest } from './scheduling-shapes.ts';
import { appointmentJson } from './appointment-answers.ts';

/**
 * The appointment's row, locked after its doctor's. A booking locks the doctor and then, inserting into the slot,
 * waits for a cancel of that slot still running; a cancel that locked the appointment and then (offering the freed
 * slot) the doctor closed the circle: a deadlock. Every path now takes the doctor first, then the appointment; a
 * move's doctors in the order of their ids. The doctor is read before the lock: should a move to another doctor
 * commit in between, that doctor is locked after the appointment, out of order, and a deadlock then is retried.
 */
async function lockAfterDoctors(
  tx: SchedulingTxDeps,
  id: number,
  newDoctor?: number,
): Promise<Appointment | undefined> {
  const seen = await tx.appointments.find(id);
  if (!seen) return undefined;
  const doctors = [...new Set([seen.doctor.id, ...(newDoctor === undefined ? [] : [newDoctor])])].sort((a, b) => a - b);
  for (const doctor of doctors) await tx.schedules.lockDoctor(doctor);
  const found = await tx.appointments.lock(id);
  if (found && !doctors.includes(found.doctor.id)) await tx.schedules.lockDoctor(found.doctor.id);
  return found;
}

const placeOf = (a: Appointment) => ({
  doctor_id: a.doctor.id,
  date: a.date,
  start_time: a.startTime,
  end_time: a.endTime,
});

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
  const request = readFields(v, RescheduleRequest);
  const to = choiceOf(v, request, now.date);
  v.done();
  const moved = await recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const from = await lockAfterDoctors(tx, id, request.doctor_id);
      if (!from || (ownPatient !== undefined && from.patient.id !== ownPatient)) {
        throw refusal('Appointment', actor, {
          entity: 'appointment',
          entityId: id,
          patientId: from?.patient.id,
          attempt: 'reschedule',
        });
      }
      if (from.status !== 'scheduled')
        throw conflict(
          'invalid_transition',
          `This appointment is ${from.status.replace('_', ' ')} and cannot be moved`,
        );
      if (!desk && hasStarted(from.date, from.startTime, now)) {
        throw conflict('appointment_started', 'This appointment has already started and can no longer be moved');
      }
      const placement = { ...to, doctorId: request.doctor_id ?? from.doctor.id };
      const { ownHold } = await checkPlacement(
        tx,
        placement,
        { actor, patientId: from.patient.id, limits: desk ? undefined : deps.bookingLimits, moving: id },
        now,
      );
      const after = await tx.appointments.move(id, placement, deps.clock.now());
      if (ownHold) await fulfilHold(deps, tx, ownHold, id);
      await slotFreed(deps, tx, { doctorId: from.doctor.id, date: from.date, startTime: from.startTime });
      await tx.audit.record(
        appointmentEntry('appointment_rescheduled', id, from.patient.id, actor, {
          from: placeOf(from),
          to: placeOf(after),
        }),
      );
      await noticeRescheduled(deps, tx, from, after, deps.clock.now());
      return after;
    }),
  );
  return appointmentJson(moved);
}

/** Cancels the appointment if `refuse` finds nothing against it (or its absence); its slot becomes bookable again. */
async function cancelIf(
  deps: SchedulingDeps,
  rawId: RawId,
  actor: Actor,
  refuse: (id: number, a: Appointment | undefined, now: ClinicMoment) => void,
) {
  const id = pathId(rawId, 'Appointment');
  const now = nowInClinic(deps);
  const appointment = await recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const found = await lockAfterDoctors(tx, id);
      refuse(id, found, now);
      if (!found) throw notFound('Appointment');
      return cancelLocked(deps, tx, found, actor);
    }),
  );
  return appointmentJson(appointment);
}

/** Cancels an appointment whose row the transaction holds, with its audit row and its messages. */
async function cancelLocked(
  deps: SchedulingDeps,
  tx: SchedulingTxDeps,
  found: Appointment,
  actor: Actor | null,
  details?: Record<string, unknown>,
) {
  const status = transition(found.status, 'cancel');
  const cancelled = { ...found, status, sequence: await tx.appointments.setStatus(found.id, status, deps.clock.now()) };
  await slotFreed(deps, tx, { doctorId: found.doctor.id, date: found.date, startTime: found.startTime });
  await tx.audit.record(
    appointmentEntry('cancel', found.id, found.patient.id, actor, { from: found.status, ...details }),
  );
  await noticeCancelled(deps, tx, cancelled, deps.clock.now());
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
      throw refusal('Appointment', actor, {
        entity: 'appointment',
        entityId: id,
        patientId: a?.patient.id,
        attempt: 'cancel',
      });
    }
    refuseStarted(a, now);
  });
}

// --- the reminder's one-click cancel link

const LINK_INVALID = 'This link has expired or was used already. Sign in to see your appointments.';
const linkInvalid = () => new DomainError('invalid', 'cancel_link_invalid', LINK_INVALID, { token: [LINK_INVALID] });

const readLinkToken = (body: unknown): string => readInput(CancelLinkRequest, body).token;

/** What a cancel link would cancel, shown on its confirmation page before anything changes. */
export async function previewCancelLink(deps: SchedulingDeps, body: unknown) {
  const link = await deps.links.peek('cancel_appointment', readLinkToken(body), deps.clock.now());
  const appointment = link?.appointmentId ? await deps.appointments.find(link.appointmentId) : undefined;
  if (appointment?.status !== 'scheduled') throw linkInvalid();
  return { appointment: appointmentJson(appointment) };
}

/** Follows a reminder's cancel link: once, before the visit starts, without signing in. */
export async function cancelByLink(deps: SchedulingDeps, body: unknown) {
  const token = readLinkToken(body);
  const now = nowInClinic(deps);
  const appointment = await deps.transaction(async (tx) => {
    const link = await tx.links.use('cancel_appointment', token, deps.clock.now());
    const found = link?.appointmentId ? await lockAfterDoctors(tx, link.appointmentId) : undefined;
    if (found?.status !== 'scheduled') throw linkInvalid();
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
