/**
 * The waitlist's offers: a freed slot goes to the first patient in line whose range covers its date, held for
 * them for a while; refused or expired, it goes to the next, and with nobody left it is simply free.
 */
import { clinicDateTime, isoWeekday } from '../shared/clock.ts';
import { waitlistOffer } from '../notifications/templates.ts';
import type { Role } from '../shared/actor.ts';
import type { SchedulingDeps, SchedulingTxDeps } from './ports.ts';
import { hasStarted, overlaps, type DatedSpan, type TimeSpan } from './scheduling.ts';

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
export const heldFromOthers = (holds: Hold[], patientId: number | undefined) => holds.filter((hold) => hold.patientId !== patientId);

/** The clinic's wall-clock "yyyy-MM-dd HH:mm" at which an offer's hold ends. */
export function holdUntil(expiresAt: Date, timeZone: string): string {
  const end = clinicDateTime(expiresAt, timeZone);
  return `${end.date} ${end.time}`;
}

export type OfferSettings = Pick<SchedulingDeps, 'clock' | 'timeZone' | 'waitlistHoldMinutes' | 'clinic'>;

/**
 * Offers a slot that has just become free to the first patient in line, inside the transaction that freed it, so
 * the offer exists exactly when the slot is free. The doctor's row is locked as a booking locks it, so a booking
 * and an offer of one slot happen one after the other; the offers' unique index keeps a second instance that
 * frees the same slot from offering it twice.
 */
export async function slotFreed(deps: OfferSettings, tx: SchedulingTxDeps, freed: FreedSlot): Promise<void> {
  const now = deps.clock.now();
  if (hasStarted(freed.date, freed.startTime, clinicDateTime(now, deps.timeZone))) return;
  if (!(await tx.schedules.lockDoctor(freed.doctorId))) return;
  const slot = (await tx.schedules.currentSlots(freed.doctorId, isoWeekday(freed.date))).find((s) => s.startTime === freed.startTime);
  if (!slot) return;
  const [booked, holds] = await Promise.all([
    tx.appointments.bookedTimes({ doctorId: freed.doctorId }, freed.date),
    tx.waitlist.holds(freed.doctorId, freed.date, freed.date),
  ]);
  if ([...booked, ...holds].some((taken) => overlaps(taken, slot))) return;
  const entryId = await tx.waitlist.nextInLine({ ...freed, endTime: slot.endTime });
  if (entryId === undefined) return;
  const made = await tx.waitlist.offer({
    entryId,
    doctorId: freed.doctorId,
    scheduleId: slot.id,
    date: freed.date,
    startTime: slot.startTime,
    endTime: slot.endTime,
    offeredAt: now,
    expiresAt: new Date(now.getTime() + deps.waitlistHoldMinutes * 60_000),
  });
  if (!made) return;
  const { offer } = made;
  await tx.audit.record({
    actor: null,
    action: 'offer',
    entity: 'waitlist_entry',
    entityId: entryId,
    patientId: offer.patient.id,
    details: { offer_id: offer.id, doctor_id: offer.doctor.id, date: offer.date, start_time: offer.startTime },
  });
  await tx.outbox.enqueue(
    waitlistOffer(
      deps.clinic,
      { offerId: offer.id, date: offer.date, startTime: offer.startTime, endTime: offer.endTime, patientName: offer.patient.name, doctorName: offer.doctor.name, holdUntil: holdUntil(offer.expiresAt, deps.timeZone) },
      { email: offer.patient.email, userId: null },
      now,
    ),
  );
}

/**
 * Ends the holds that ran out by now and offers each slot to the next in line; the worker calls it each round.
 * Expired offers another instance is processing are skipped, so each is handed on once.
 */
export async function expireOffers(deps: SchedulingDeps): Promise<number> {
  const now = deps.clock.now();
  return deps.transaction(async (tx) => {
    const expired = await tx.waitlist.lockExpired(now, 50);
    for (const offer of expired) {
      await tx.waitlist.closeOffer(offer.id, 'expired', now);
      await tx.audit.record({ actor: null, action: 'offer_expired', entity: 'waitlist_entry', entityId: offer.entryId, patientId: offer.patient.id, details: { offer_id: offer.id } });
      await slotFreed(deps, tx, { doctorId: offer.doctor.id, date: offer.date, startTime: offer.startTime });
    }
    return expired.length;
  });
}
