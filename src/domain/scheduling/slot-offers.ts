/** Offering a slot that has just become free to the first patient on its doctor's waitlist. */
import { waitlistOffer } from '../notifications/templates.ts';
import { clinicDateTime, isoWeekday } from '../shared/clock.ts';
import type { OfferSettings, OfferingTx } from './ports.ts';
import { hasStarted, overlaps } from './scheduling.ts';
import { closedBy } from './time-off.ts';
import { holdUntil, type FreedSlot } from './waitlist.ts';

/**
 * Offers a slot that has just become free to the first patient in line, inside the transaction that freed it, so
 * the offer exists exactly when the slot is free. The doctor's row is locked as a booking locks it, so a booking
 * and an offer of one slot happen one after the other; the offers' unique index keeps a second instance that
 * frees the same slot from offering it twice.
 */
export async function slotFreed(deps: OfferSettings, tx: OfferingTx, freed: FreedSlot): Promise<void> {
  const now = deps.clock.now();
  if (hasStarted(freed.date, freed.startTime, clinicDateTime(now, deps.timeZone))) return;
  if (!(await tx.schedules.lockDoctor(freed.doctorId))) return;
  const slot = (await tx.schedules.currentSlots(freed.doctorId, isoWeekday(freed.date))).find(
    (s) => s.startTime === freed.startTime,
  );
  if (!slot || closedBy(await tx.timeOff.covering(freed.doctorId, freed.date, freed.date), freed.date, slot)) return;
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
      {
        offerId: offer.id,
        date: offer.date,
        startTime: offer.startTime,
        endTime: offer.endTime,
        patientName: offer.patient.name,
        doctorName: offer.doctor.name,
        holdUntil: holdUntil(offer.expiresAt, deps.timeZone),
      },
      { email: offer.patient.email, userId: null },
      now,
    ),
  );
}
