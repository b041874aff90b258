/**
 * Taking a slot for a patient: the one path a patient's booking, the desk's booking, a move and an accepted
 * waitlist offer all go through.
 */
import type { AuditEntry } from '../audit/audit.ts';
import type { Actor } from '../shared/actor.ts';
import { isoWeekday } from '../shared/clock.ts';
import { conflict, invalid, notFound, type DomainError } from '../shared/errors.ts';
import { noticeBooked } from './notices.ts';
import type { BookingLimits, BookingTx, SchedulingSettings, SlotChoice } from './ports.ts';
import {
  SLOT_TAKEN,
  hasStarted,
  overlaps,
  type Appointment,
  type ClinicMoment,
  type WeeklySlot,
} from './scheduling.ts';
import { closedBy, closedReason } from './time-off.ts';
import { heldFromOthers, type Hold } from './waitlist.ts';

export const appointmentEntry = (
  action: string,
  id: number,
  patientId: number,
  actor: Actor | null,
  details?: Record<string, unknown>,
): AuditEntry => ({
  actor,
  action,
  entity: 'appointment',
  entityId: id,
  patientId,
  requestId: actor?.requestId,
  details,
});

function refuseOverLimit(booked: { withDoctorThatDay: number; upcoming: number }, limits: BookingLimits): void {
  if (booked.withDoctorThatDay >= limits.perDoctorPerDay) {
    const visits = limits.perDoctorPerDay === 1 ? 'an appointment' : `${limits.perDoctorPerDay} appointments`;
    throw conflict('booking_limit', `You already have ${visits} with this doctor on that day`, {
      schedule_id: ['is over your booking limit'],
    });
  }
  if (booked.upcoming >= limits.upcoming) {
    throw conflict(
      'booking_limit',
      `You already have ${limits.upcoming} upcoming appointments; cancel one before booking another`,
      {
        schedule_id: ['is over your booking limit'],
      },
    );
  }
}

/** A doctor's slot on a date, as a booking or a move names it. */
export interface Placement extends SlotChoice {
  doctorId: number;
}

/** Whom a booking or a move is for: a patient is held to the booking limits, the desk is not. */
export interface Booker {
  actor: Actor | null;
  patientId: number;
  limits?: BookingLimits;
  /** The appointment being moved, which does not stand in its own way. */
  moving?: number;
  /**
   * The refusal when the slot itself is gone (its doctor or slot retired, or it has begun), instead of the booking
   * form's field errors: an accepted offer answers that it closed.
   */
  slotGone?: () => DomainError;
}

type OwnHold = Pick<Hold, 'offerId' | 'entryId'>;

/**
 * Checks that the placement is a current slot of its doctor, not yet started nor in a leave or closure, that
 * neither the doctor nor the patient has another appointment overlapping, that no waitlist offer holds it for
 * someone else, and the booking limits. The doctor's and then the patient's rows are locked first, so the checks'
 * one read sees every booking and offer committed before; the slot's unique index stays the last word on a taken
 * slot. Answers the slot and the patient's own offer of it, which taking the slot fulfils.
 */
export async function checkPlacement(
  tx: Pick<BookingTx, 'placements'>,
  to: Placement,
  who: Booker,
  now: ClinicMoment,
): Promise<{ slot: WeeklySlot; ownHold: OwnHold | undefined }> {
  const gone = (refusal: DomainError) => who.slotGone?.() ?? refusal;
  const { doctor, patient } = await tx.placements.lock(to.doctorId, who.patientId);
  if (!doctor) throw gone(notFound('Doctor'));
  const facts = await tx.placements.facts({
    doctorId: to.doctorId,
    scheduleId: to.scheduleId,
    date: to.date,
    patientId: who.patientId,
    today: now.date,
    except: who.moving,
  });
  const { slot } = facts;
  if (!slot || slot.doctorId !== to.doctorId || slot.retired)
    throw gone(invalid({ schedule_id: ["is not one of this doctor's current slots"] }));
  if (slot.weekday !== isoWeekday(to.date)) throw invalid({ schedule_id: [`is not a slot on ${to.date}'s weekday`] });
  if (hasStarted(to.date, slot.startTime, now))
    throw gone(invalid({ schedule_id: ['has already started; choose a later slot'] }));
  const closed = closedBy(facts.timeOff, to.date, slot);
  if (closed) throw gone(invalid({ schedule_id: [closedReason(closed)] }));
  if ([...facts.doctorBooked, ...heldFromOthers(facts.holds, who.patientId)].some((b) => overlaps(b, slot))) {
    throw conflict(SLOT_TAKEN.code, SLOT_TAKEN.message, { [SLOT_TAKEN.field]: [SLOT_TAKEN.message] });
  }
  if (!patient) throw invalid({ patient_id: ['is not a registered patient'] });
  if (facts.patientBooked.some((b) => overlaps(b, slot))) {
    const whose = who.limits ? 'You already have' : 'The patient already has';
    throw conflict('patient_busy', `${whose} an appointment at this time on that day`, {
      schedule_id: ['overlaps another appointment of the patient'],
    });
  }
  if (who.limits) refuseOverLimit(facts.patientBookings, who.limits);
  return { slot, ownHold: facts.holds.find((hold) => hold.patientId === who.patientId && overlaps(hold, slot)) };
}

/** The patient's offer of the slot they now have is accepted, and their place in line is done. */
export async function fulfilHold(
  deps: Pick<SchedulingSettings, 'clock'>,
  tx: Pick<BookingTx, 'waitlist'>,
  hold: OwnHold,
  appointmentId: number,
): Promise<void> {
  const at = deps.clock.now();
  await tx.waitlist.closeOffer(hold.offerId, 'accepted', at, appointmentId);
  await tx.waitlist.closeEntry(hold.entryId, 'booked', at);
}

export interface SlotTaking extends SlotChoice {
  patientId: number;
  actor: Actor | null;
  /** The patient's own waitlist offer of this slot, which the booking fulfils. */
  hold?: OwnHold;
  details?: Record<string, unknown>;
}

/** Books a slot that `checkPlacement` passed: the appointment, its audit row, the offer it fulfils and its messages. */
export async function takeSlot(
  deps: Pick<SchedulingSettings, 'clock' | 'clinic' | 'reminderHours'>,
  tx: BookingTx,
  b: SlotTaking,
): Promise<Appointment> {
  const booked = await tx.appointments.insert({ patientId: b.patientId, scheduleId: b.scheduleId, date: b.date });
  await tx.audit.record(appointmentEntry('book', booked.id, b.patientId, b.actor, b.details));
  if (b.hold) await fulfilHold(deps, tx, b.hold, booked.id);
  await noticeBooked(deps, tx, booked, deps.clock.now());
  return booked;
}
