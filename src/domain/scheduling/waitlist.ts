/**
 * The waitlist's offers: a freed slot goes to the first patient in line whose range covers its date, held for
 * them for a while; refused or expired, it goes to the next, and with nobody left it is simply free.
 */
import { clinicDateTime } from '../shared/clock.ts';
import type { Role } from '../shared/actor.ts';
import type { DatedSpan } from './scheduling.ts';
import type { TimeSpan } from './time-span.ts';

/** Who besides patients themselves puts a patient on a waitlist (the front desk's roles join here). */
export const WAITLIST_STAFF: Role[] = ['admin', 'reception'];

export const DEFAULT_WAITLIST_HOLD_MINUTES = 30;

/** A doctor's slot on a date that has just become free (a cancellation, a reschedule's old slot). */
export interface FreedSlot {
  doctorId: number;
  date: string;
  startTime: string;
}

export interface NewWaitlistEntry {
  patientId: number;
  doctorId: number;
  fromDate: string;
  toDate: string;
  joinedAt: Date;
}

export interface WaitlistEntry {
  id: number;
  doctor: { id: number; name: string };
  fromDate: string;
  toDate: string;
  joinedAt: Date;
  offer: (TimeSpan & { date: string; expiresAt: Date }) | null;
}

/** An open offer: the slot is the offered patient's alone until it is accepted, refused or expires. */
export interface Hold extends DatedSpan {
  offerId: number;
  entryId: number;
  patientId: number;
}

export interface NewOffer extends TimeSpan {
  entryId: number;
  doctorId: number;
  scheduleId: number;
  date: string;
  offeredAt: Date;
  expiresAt: Date;
}

export const OFFER_STATUSES = ['open', 'accepted', 'declined', 'expired', 'withdrawn'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];

export interface WaitlistOffer extends TimeSpan {
  id: number;
  entryId: number;
  scheduleId: number;
  date: string;
  expiresAt: Date;
  status: OfferStatus;
  patient: { id: number; name: string; email: string };
  doctor: { id: number; name: string };
}

/** Offers of others than `patientId` (none for staff): the slots this caller may not book. */
export const heldFromOthers = (holds: Hold[], patientId: number | undefined) =>
  holds.filter((hold) => hold.patientId !== patientId);

/** The clinic's wall-clock "yyyy-MM-dd HH:mm" at which an offer's hold ends. */
export function holdUntil(expiresAt: Date, timeZone: string): string {
  const end = clinicDateTime(expiresAt, timeZone);
  return `${end.date} ${end.time}`;
}
