/** The messages a booking or a cancellation sends, written in its transaction. */
import type { Clinic } from '../notifications/message.ts';
import type { Notifying } from '../notifications/ports.ts';
import {
  bookingConfirmation,
  cancellationForDoctor,
  cancellationForPatient,
  reminder,
  reminderTime,
  visitStart,
  type Visit,
} from '../notifications/templates.ts';
import type { Appointment } from './scheduling.ts';

export interface NoticeSettings {
  clinic: Clinic;
  /** How long before a visit its reminder goes out (REMINDER_HOURS). */
  reminderHours: number;
}

export const visitOf = (a: Appointment): Visit => ({
  appointmentId: a.id,
  date: a.date,
  startTime: a.startTime,
  endTime: a.endTime,
  patient: { name: a.patient.name, email: a.patient.email },
  doctor: { name: a.doctor.name, email: a.doctor.email },
  room: a.room?.name ?? null,
  department: a.department?.name ?? null,
});

/** A confirmation with its calendar file now, and a reminder before the visit with a one-click cancel link. */
export async function noticeBooked(settings: NoticeSettings, tx: Notifying, appointment: Appointment, now: Date): Promise<void> {
  const visit = visitOf(appointment);
  const patient = { email: appointment.patient.email, userId: null };
  await tx.outbox.enqueue(bookingConfirmation(settings.clinic, visit, patient, now));
  const sendAfter = reminderTime(visit, settings.reminderHours, settings.clinic.timeZone, now);
  if (!sendAfter) return;
  const cancelToken = await tx.links.issue({
    kind: 'cancel_appointment',
    userId: null,
    appointmentId: appointment.id,
    email: null,
    expiresAt: visitStart(visit, settings.clinic.timeZone),
  });
  await tx.outbox.enqueue(reminder(settings.clinic, visit, patient, sendAfter, cancelToken));
}

/** The unsent messages of the visit are withdrawn; the patient (with the calendar's withdrawal) and the doctor are told. */
export async function noticeCancelled(settings: NoticeSettings, tx: Notifying, appointment: Appointment, now: Date): Promise<void> {
  const visit = visitOf(appointment);
  await tx.outbox.withdraw(appointment.id, ['reminder', 'booking_confirmation']);
  await tx.outbox.enqueue(cancellationForPatient(settings.clinic, visit, { email: appointment.patient.email, userId: null }, now));
  await tx.outbox.enqueue(cancellationForDoctor(settings.clinic, visit, { email: appointment.doctor.email, userId: null }, now));
}
