/** The messages a booking, a move or a cancellation sends, written in its transaction. */
import type { Clinic, Message } from '../notifications/message.ts';
import type { Notifying } from '../notifications/ports.ts';
import {
  bookingConfirmation,
  cancellationForDoctor,
  cancellationForPatient,
  reminder,
  reminderTime,
  rescheduleConfirmation,
  visitStart,
  type Recipient,
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
  sequence: a.sequence,
});

/** The patient as a recipient; none for a patient registered at the desk without an e-mail. */
const patientRecipient = (a: Appointment): Recipient | undefined =>
  a.patient.email === null ? undefined : { email: a.patient.email, userId: null };

/**
 * `message`, and a reminder before the visit with a one-click cancel link unless that time has passed: the link
 * first, then both messages in one insert.
 */
async function sendWithReminder(
  settings: NoticeSettings,
  tx: Notifying,
  appointment: Appointment,
  patient: Recipient,
  now: Date,
  message: Message,
): Promise<void> {
  const visit = visitOf(appointment);
  const sendAfter = reminderTime(visit, settings.reminderHours, settings.clinic.timeZone, now);
  if (!sendAfter) return tx.outbox.enqueue(message);
  const cancelLinkId = await tx.links.prepare({
    kind: 'cancel_appointment',
    userId: null,
    appointmentId: appointment.id,
    email: null,
    expiresAt: visitStart(visit, settings.clinic.timeZone),
  });
  await tx.outbox.enqueue(message, reminder(settings.clinic, visit, patient, sendAfter, cancelLinkId));
}

/** A confirmation with its calendar file now, and a reminder before the visit. */
export async function noticeBooked(
  settings: NoticeSettings,
  tx: Notifying,
  appointment: Appointment,
  now: Date,
): Promise<void> {
  const patient = patientRecipient(appointment);
  if (!patient) return;
  const confirmation = bookingConfirmation(settings.clinic, visitOf(appointment), patient, now);
  await sendWithReminder(settings, tx, appointment, patient, now, confirmation);
}

/** The old time's unsent messages are withdrawn; the patient gets the new time with an updated calendar event and a new reminder. */
export async function noticeRescheduled(
  settings: NoticeSettings,
  tx: Notifying,
  from: Appointment,
  to: Appointment,
  now: Date,
): Promise<void> {
  await tx.outbox.withdraw(from.id, ['reminder', 'booking_confirmation', 'reschedule']);
  const patient = patientRecipient(to);
  if (!patient) return;
  const confirmation = rescheduleConfirmation(settings.clinic, visitOf(from), visitOf(to), patient, now);
  await sendWithReminder(settings, tx, to, patient, now, confirmation);
}

/** The unsent messages of the visit are withdrawn; the patient (with the calendar's withdrawal) and the doctor are told. */
export async function noticeCancelled(
  settings: NoticeSettings,
  tx: Notifying,
  appointment: Appointment,
  now: Date,
): Promise<void> {
  const visit = visitOf(appointment);
  await tx.outbox.withdraw(appointment.id, ['reminder', 'booking_confirmation', 'reschedule']);
  const patient = patientRecipient(appointment);
  await tx.outbox.enqueue(
    ...(patient ? [cancellationForPatient(settings.clinic, visit, patient, now)] : []),
    cancellationForDoctor(settings.clinic, visit, { email: appointment.doctor.email, userId: null }, now),
  );
}
