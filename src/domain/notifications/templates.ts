/** Every message Medora sends, built from the event that causes it. */
import { clinicInstant } from '../shared/clock.ts';
import { formatDate, formatDayTime, formatLongDate, formatTime } from '../shared/date-format.ts';
import { centsToDecimal } from '../shared/money.ts';
import { calendar, type CalendarVisit } from './ics.ts';
import { render, type Clinic, type Message } from './message.ts';

/** A visit as messages tell it. */
export interface Visit {
  appointmentId: number;
  date: string;
  startTime: string;
  endTime: string;
  patient: { name: string; email: string | null };
  doctor: { name: string; email: string };
  room: string | null;
  department: string | null;
  /** The calendar event's version, as stored with the appointment after the change being told. */
  sequence: number;
}

export interface Recipient {
  email: string;
  userId: number | null;
}

/** "Monday, June 3, 2030 at 9:00 AM", in the clinic's locale. */
export const when = (visit: Pick<Visit, 'date' | 'startTime'>, locale: string) =>
  `${formatLongDate(visit.date, locale)} at ${formatTime(visit.startTime, locale)}`;

/** "room 4, Cardiology": where a visit takes place, as messages and calendars say it. */
/** "room 4, Cardiology"; a room whose name says it is one ("Room 101") is not called a room twice. */
export const where = (visit: Pick<Visit, 'room' | 'department'>) =>
  [visit.room && (/\broom\b/i.test(visit.room) ? visit.room : `room ${visit.room}`), visit.department]
    .filter(Boolean)
    .join(', ');

function calendarVisit(visit: Visit, status: CalendarVisit['status'], clinic: Clinic): CalendarVisit {
  return {
    appointmentId: visit.appointmentId,
    date: visit.date,
    startTime: visit.startTime,
    endTime: visit.endTime,
    summary: `Appointment with ${visit.doctor.name}`,
    description: `Your appointment at ${clinic.name} with ${visit.doctor.name}.`,
    location: [clinic.name, where(visit)].filter(Boolean).join(', '),
    status,
    attendee: visit.patient.email === null ? undefined : { name: visit.patient.name, email: visit.patient.email },
    sequence: visit.sequence,
  };
}

/** The visit's calendar file, with the sequence the calendar feed shows for it too. */
const invitation = (clinic: Clinic, visit: Visit, method: 'REQUEST' | 'CANCEL', now: Date) => ({
  filename: method === 'REQUEST' ? 'appointment.ics' : 'cancelled-appointment.ics',
  contentType: `text/calendar; charset=utf-8; method=${method}`,
  content: calendar(clinic, [calendarVisit(visit, method === 'REQUEST' ? 'CONFIRMED' : 'CANCELLED', clinic)], {
    method,
    now,
  }),
});

/**
 * The visit as a calendar file to download (no METHOD: an event to add, not an invitation to answer), with the
 * same VEVENT as its invitation, so a calendar that has both keeps one event.
 */
export const visitCalendar = (clinic: Clinic, visit: Visit, cancelled: boolean, now: Date) =>
  calendar(clinic, [calendarVisit(visit, cancelled ? 'CANCELLED' : 'CONFIRMED', clinic)], { now });

/** Where a visit is now, for the keys of messages that are written again when it moves. */
const slotKey = (visit: Visit) => `${visit.date}T${visit.startTime.slice(0, 5)}`;

const toPatient = (visit: Visit, patient: Recipient) => ({
  to: patient.email,
  userId: patient.userId,
  appointmentId: visit.appointmentId,
});

export function bookingConfirmation(clinic: Clinic, visit: Visit, patient: Recipient, now: Date): Message {
  return {
    kind: 'booking_confirmation',
    dedupeKey: `booking_confirmation:appointment:${visit.appointmentId}`,
    ...toPatient(visit, patient),
    subject: `Your appointment on ${when(visit, clinic.locale)}`,
    ...render(clinic, {
      greeting: `Dear ${visit.patient.name},`,
      paragraphs: [
        `your appointment with ${visit.doctor.name} is booked for ${when(visit, clinic.locale)} (until ${formatTime(visit.endTime, clinic.locale)}).`,
        ...(where(visit) ? [`Please come to ${where(visit)}.`] : []),
        'The attached calendar file adds it to your calendar. If you cannot come, please cancel it in Medora so someone else can have the time.',
      ],
    }),
    attachments: [invitation(clinic, visit, 'REQUEST', now)],
    sendAfter: now,
  };
}

/** The visit moved to another time or doctor: the patient gets the new time with the calendar's updated event. */
export function rescheduleConfirmation(clinic: Clinic, from: Visit, to: Visit, patient: Recipient, now: Date): Message {
  return {
    kind: 'reschedule',
    dedupeKey: `reschedule:appointment:${to.appointmentId}:${slotKey(to)}:${now.getTime()}`,
    ...toPatient(to, patient),
    subject: `Moved: your appointment is now on ${when(to, clinic.locale)}`,
    ...render(clinic, {
      greeting: `Dear ${to.patient.name},`,
      paragraphs: [
        `your appointment with ${from.doctor.name} on ${when(from, clinic.locale)} has moved to ${when(to, clinic.locale)} (until ${formatTime(to.endTime, clinic.locale)}) with ${to.doctor.name}.`,
        ...(where(to) ? [`Please come to ${where(to)}.`] : []),
        'The attached calendar file updates the appointment in your calendar.',
      ],
    }),
    attachments: [invitation(clinic, to, 'REQUEST', now)],
    sendAfter: now,
  };
}

export function cancellationForPatient(clinic: Clinic, visit: Visit, patient: Recipient, now: Date): Message {
  return {
    kind: 'cancellation',
    dedupeKey: `cancellation:appointment:${visit.appointmentId}:patient`,
    ...toPatient(visit, patient),
    subject: `Cancelled: your appointment on ${when(visit, clinic.locale)}`,
    ...render(clinic, {
      greeting: `Dear ${visit.patient.name},`,
      paragraphs: [
        `your appointment with ${visit.doctor.name} on ${when(visit, clinic.locale)} is cancelled.`,
        'You are welcome to book another time in Medora.',
      ],
    }),
    attachments: [invitation(clinic, visit, 'CANCEL', now)],
    sendAfter: now,
  };
}

export function cancellationForDoctor(clinic: Clinic, visit: Visit, doctor: Recipient, now: Date): Message {
  return {
    kind: 'cancellation',
    dedupeKey: `cancellation:appointment:${visit.appointmentId}:doctor`,
    to: doctor.email,
    userId: doctor.userId,
    appointmentId: visit.appointmentId,
    subject: `Cancelled: ${visit.patient.name} on ${when(visit, clinic.locale)}`,
    ...render(clinic, {
      greeting: `Dear ${visit.doctor.name},`,
      paragraphs: [
        `the appointment of ${visit.patient.name} on ${when(visit, clinic.locale)} is cancelled; the time is free again.`,
      ],
    }),
    attachments: [],
    sendAfter: now,
  };
}

/** A day before, as most clinics remind. */
export const DEFAULT_REMINDER_HOURS = 24;

/** When the reminder `hours` before the visit goes out, or none when that time has passed: a booking made the day before needs none. */
export function reminderTime(
  visit: Pick<Visit, 'date' | 'startTime'>,
  hours: number,
  timeZone: string,
  now: Date,
): Date | undefined {
  const sendAfter = new Date(visitStart(visit, timeZone).getTime() - hours * 3_600_000);
  return sendAfter > now ? sendAfter : undefined;
}

export const visitStart = (visit: Pick<Visit, 'date' | 'startTime'>, timeZone: string) =>
  clinicInstant(visit.date, visit.startTime.slice(0, 5), timeZone);

/** The reminder, whose link cancels the visit in one click (after a confirmation page). */
export function reminder(
  clinic: Clinic,
  visit: Visit,
  patient: Recipient,
  sendAfter: Date,
  cancelLinkId: number,
): Message {
  return {
    kind: 'reminder',
    dedupeKey: `reminder:appointment:${visit.appointmentId}:${slotKey(visit)}`,
    ...toPatient(visit, patient),
    subject: `Reminder: your appointment on ${when(visit, clinic.locale)}`,
    ...render(clinic, {
      greeting: `Dear ${visit.patient.name},`,
      paragraphs: [
        `a reminder of your appointment with ${visit.doctor.name} on ${when(visit, clinic.locale)}.`,
        ...(where(visit) ? [`Please come to ${where(visit)}.`] : []),
        'If you cannot come, please cancel it, so someone else can have the time.',
      ],
      action: { label: 'Cancel this appointment' },
    }),
    attachments: [],
    sendAfter,
    linkId: cancelLinkId,
  };
}

/** A freed slot held for a patient on the waitlist. */
export interface OfferedSlot {
  offerId: number;
  date: string;
  startTime: string;
  endTime: string;
  patientName: string;
  doctorName: string;
  /** The clinic's wall-clock end of the hold, "yyyy-MM-dd HH:mm". */
  holdUntil: string;
}

/** The waitlist's offer, whose link opens a page to accept or refuse the held slot. */
export function waitlistOffer(clinic: Clinic, slot: OfferedSlot, patient: Recipient, now: Date): Message {
  return {
    kind: 'waitlist_offer',
    dedupeKey: `waitlist_offer:offer:${slot.offerId}`,
    to: patient.email,
    userId: patient.userId,
    appointmentId: null,
    subject: `A time with ${slot.doctorName} is free: ${when(slot, clinic.locale)}`,
    ...render(clinic, {
      greeting: `Dear ${slot.patientName},`,
      paragraphs: [
        `a time you were waiting for has become free: ${slot.doctorName} on ${when(slot, clinic.locale)} (until ${formatTime(slot.endTime, clinic.locale)}).`,
        `We hold it for you until ${formatDayTime(slot.holdUntil, clinic.locale)}. After that, it is offered to the next patient on the waitlist.`,
      ],
      action: { label: 'Accept or decline this time' },
    }),
    attachments: [],
    sendAfter: now,
    linkId: slot.offerId,
  };
}

export interface BilledVisit {
  billId: number;
  amountCents: number;
  serviceDetails: string;
  billingDate: string;
  patientName: string;
}

export function billIssued(clinic: Clinic, bill: BilledVisit, patient: Recipient, now: Date): Message {
  return {
    kind: 'bill_issued',
    dedupeKey: `bill_issued:bill:${bill.billId}`,
    to: patient.email,
    userId: patient.userId,
    appointmentId: null,
    subject: `Your bill of $${centsToDecimal(bill.amountCents)}`,
    ...render(clinic, {
      greeting: `Dear ${bill.patientName},`,
      paragraphs: [
        `thank you for your visit. Your bill of ${formatDate(bill.billingDate, clinic.locale)} is $${centsToDecimal(bill.amountCents)}: ${bill.serviceDetails}.`,
        'You can pay it under Bills in Medora, or at the front desk.',
      ],
    }),
    attachments: [],
    sendAfter: now,
  };
}

export function paymentReceipt(
  clinic: Clinic,
  bill: BilledVisit & { method: string; paymentId: number },
  patient: Recipient,
  now: Date,
): Message {
  return {
    kind: 'payment_receipt',
    dedupeKey: `payment_receipt:payment:${bill.paymentId}`,
    to: patient.email,
    userId: patient.userId,
    appointmentId: null,
    subject: `Receipt: $${centsToDecimal(bill.amountCents)} paid`,
    ...render(clinic, {
      greeting: `Dear ${bill.patientName},`,
      paragraphs: [
        `we received your payment of $${centsToDecimal(bill.amountCents)} by ${bill.method.replace('_', ' ')} for bill #${bill.billId} (${bill.serviceDetails}).`,
        'The full receipt is under Bills in Medora. Thank you.',
      ],
    }),
    attachments: [],
    sendAfter: now,
  };
}

export function passwordResetMessage(
  clinic: Clinic,
  resetId: number,
  user: Recipient & { name: string },
  minutes: number,
  now: Date,
): Message {
  return {
    kind: 'password_reset',
    dedupeKey: `password_reset:reset:${resetId}`,
    to: user.email,
    userId: user.userId,
    appointmentId: null,
    subject: `Choose a new password for ${clinic.name}`,
    ...render(clinic, {
      greeting: `Dear ${user.name},`,
      paragraphs: [
        `someone, we hope you, asked to choose a new password for your Medora account. The link works once, for ${minutes} minutes.`,
        'If it was not you, ignore this message: your password stays as it is.',
      ],
      action: { label: 'Choose a new password' },
    }),
    attachments: [],
    sendAfter: now,
    linkId: resetId,
  };
}

/**
 * Whose address a verification confirms: one the patient gave themselves (`own`), one staff entered for a patient
 * who signs in with another (`change`, confirmed with their password), or the first one staff entered (`first`).
 */
export type VerificationPurpose = 'own' | 'change' | 'first';

const VERIFICATION_TEXT: Record<VerificationPurpose, string[]> = {
  own: ['please confirm that this is your e-mail address, so we can send you appointment reminders.'],
  change: [
    'the clinic entered this address as the new sign-in e-mail of your Medora account. To start using it, confirm it with your Medora password.',
    'Until then you keep signing in with your previous address, and we send nothing else here. If you have no Medora account, ignore this message: nothing changes without the password.',
  ],
  first: [
    'the clinic entered this address for your Medora account. Confirm it, and we send your appointment messages here; then you can choose a password through "Forgot password" on the sign-in page.',
    'If this is not about you, ignore this message: we send nothing else here until the address is confirmed.',
  ],
};

export function emailVerification(
  clinic: Clinic,
  user: Recipient & { name: string },
  linkId: number,
  now: Date,
  purpose: VerificationPurpose = 'own',
): Message {
  return {
    kind: 'email_verification',
    dedupeKey: `email_verification:${user.userId}:${user.email.toLowerCase()}:${now.getTime()}`,
    to: user.email,
    userId: user.userId,
    appointmentId: null,
    subject: `Confirm your e-mail address for ${clinic.name}`,
    ...render(clinic, {
      greeting: `Dear ${user.name},`,
      paragraphs: VERIFICATION_TEXT[purpose],
      action: { label: 'Confirm my e-mail address' },
    }),
    attachments: [],
    sendAfter: now,
    linkId,
  };
}

/** To the address a patient signs in with, when staff enter another: nothing changes without their password. */
export function emailChangeNotice(
  clinic: Clinic,
  user: Recipient & { name: string },
  newEmail: string,
  now: Date,
): Message {
  return {
    kind: 'email_change_notice',
    dedupeKey: `email_change_notice:${user.userId}:${newEmail.toLowerCase()}:${now.getTime()}`,
    to: user.email,
    userId: user.userId,
    appointmentId: null,
    subject: `A new sign-in e-mail was entered for your ${clinic.name} account`,
    ...render(clinic, {
      greeting: `Dear ${user.name},`,
      paragraphs: [
        `the clinic's staff entered ${newEmail} as the new sign-in e-mail of your Medora account.`,
        'Nothing changes until it is confirmed with your password from that address: you keep signing in with this one, and we keep writing to it.',
        'If you did not ask for this, please tell the clinic, and never give anyone your password.',
      ],
    }),
    attachments: [],
    sendAfter: now,
  };
}

/** To an account's owner when someone signs up with its address: the sign-up says the same as for a new one. */
export function registrationAttempt(clinic: Clinic, user: Recipient & { name: string }, now: Date): Message {
  return {
    kind: 'registration_attempt',
    dedupeKey: `registration_attempt:${user.userId}:${now.getTime()}`,
    to: user.email,
    userId: user.userId,
    appointmentId: null,
    subject: `Someone tried to register with your address at ${clinic.name}`,
    ...render(clinic, {
      greeting: `Dear ${user.name},`,
      paragraphs: [
        'someone, perhaps you, tried to create a Medora account with this e-mail address. It already has an account, so nothing was created.',
        'If it was you, sign in with your password, or choose a new one through "Forgot password" on the sign-in page. If it was not, you can ignore this message.',
      ],
    }),
    attachments: [],
    sendAfter: now,
  };
}

/** A critical lab result as its e-mails tell it: what and whose, never the value (it is read signed in). */
export interface CriticalNotice {
  alertId: number;
  orderNumber: string;
  testName: string;
  patientName: string;
  orderingDoctor: string;
  /** When the alert escalates to the department (30 minutes after it was raised). */
  escalatesAt: Date;
}

/**
 * A critical result's e-mail: to the ordering doctor at once, or — `escalation` — to a doctor of their department
 * when it escalates, which the outbox does not send if the result was acknowledged by then.
 */
export function criticalResult(
  clinic: Clinic,
  notice: CriticalNotice,
  doctor: Recipient & { name: string },
  escalation: boolean,
  now: Date,
): Message {
  const kind = escalation ? 'critical_result_escalation' : 'critical_result';
  return {
    kind,
    dedupeKey: `${kind}:alert:${notice.alertId}:user:${doctor.userId}`,
    to: doctor.email,
    userId: doctor.userId,
    appointmentId: null,
    subject: `Critical lab result to acknowledge: ${notice.testName} (order ${notice.orderNumber})`,
    ...render(clinic, {
      greeting: `Dear ${doctor.name},`,
      paragraphs: [
        escalation
          ? `a critical result of ${notice.testName} for ${notice.patientName} (order ${notice.orderNumber}, ordered by ${notice.orderingDoctor}) has not been acknowledged for 30 minutes. As a doctor of the department, you may acknowledge it now.`
          : `a critical result of ${notice.testName} for ${notice.patientName} (order ${notice.orderNumber}) needs your acknowledgement.`,
        'Sign in to Medora to see the value and acknowledge it under Results to review.',
      ],
    }),
    attachments: [],
    sendAfter: escalation ? notice.escalatesAt : now,
    labAlertId: notice.alertId,
  };
}
