/**
 * Calendar feeds: a private address per doctor (their appointments, with their patients' names) and per patient
 * (their own visits, with no patient's name at all), which calendar applications subscribe to.
 */
import { addDays, clinicToday, type Clock } from '../shared/clock.ts';
import { calendar, type CalendarVisit } from './ics.ts';
import type { Clinic } from './message.ts';
import { where } from './templates.ts';

/** A feed reaches back far enough for last month's visits and ahead as far as anyone books. */
export const FEED_DAYS_BACK = 30;
export const FEED_DAYS_AHEAD = 180;

/** Whose feed a token opens: an active doctor or patient. */
export type FeedOwner = { userId: number; name: string } & (
  | { role: 'doctor'; doctorId: number }
  | { role: 'patient'; patientId: number }
);

/** A visit in a patient's feed: what the patient's own e-mails say of it, and nobody's name but the doctor's. */
export interface FeedVisit {
  appointmentId: number;
  date: string;
  startTime: string;
  endTime: string;
  status: 'scheduled' | 'completed' | 'cancelled';
  doctorName: string;
  room: string | null;
  department: string | null;
  /** The calendar event's version, the one the visit's last e-mail carried. */
  sequence: number;
  /** When the visit last changed: the event's DTSTAMP in a feed. */
  revisedAt: Date;
}

/** A visit in a doctor's feed, which names the patient. */
export interface DoctorFeedVisit extends FeedVisit {
  patientName: string;
}

/** The clinic dates a feed covers, both included. */
export function feedWindow(clock: Clock, timeZone: string): { from: string; to: string } {
  const today = clinicToday(clock, timeZone);
  return { from: addDays(today, -FEED_DAYS_BACK), to: addDays(today, FEED_DAYS_AHEAD) };
}

function event(clinic: Clinic, visit: FeedVisit, summary: string, description: string): CalendarVisit {
  const cancelled = visit.status === 'cancelled';
  return {
    appointmentId: visit.appointmentId,
    date: visit.date,
    startTime: visit.startTime,
    endTime: visit.endTime,
    summary: cancelled ? `Cancelled: ${summary}` : summary,
    description,
    location: [clinic.name, where(visit)].filter(Boolean).join(', '),
    // Kept, not dropped: a calendar that imported the booking's invitation (the same UID) learns of the
    // cancellation from the feed too.
    status: cancelled ? 'CANCELLED' : 'CONFIRMED',
    sequence: visit.sequence,
    revisedAt: visit.revisedAt,
  };
}

/** A doctor's appointments, each under its patient's name. */
export function doctorFeed(clinic: Clinic, doctorName: string, visits: DoctorFeedVisit[], now: Date): string {
  const events = visits.map((v) =>
    event(clinic, v, v.patientName, `Appointment of ${v.patientName} with ${v.doctorName} at ${clinic.name}.`),
  );
  return calendar(clinic, events, { now, name: `${clinic.name}: ${doctorName}` });
}

/** A patient's own visits, told as their confirmation e-mails tell them. */
export function patientFeed(clinic: Clinic, visits: FeedVisit[], now: Date): string {
  const events = visits.map((v) =>
    event(clinic, v, `Appointment with ${v.doctorName}`, `Your appointment at ${clinic.name} with ${v.doctorName}.`),
  );
  return calendar(clinic, events, { now, name: `${clinic.name} appointments` });
}
