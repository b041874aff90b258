/** Joining and leaving a doctor's waitlist, answering the offer its e-mail links to, and expiring offers whose hold ran out. */
import { recordingRefusals, refusal } from '../audit/audit.ts';
import { ownPatientId, type Actor } from '../shared/actor.ts';
import { clinicDateTime } from '../shared/clock.ts';
import { DomainError, conflict, forbidden, invalid } from '../shared/errors.ts';
import { pageRequest, type Page } from '../shared/pagination.ts';
import { Validator, asRecord, pathId, type RawId } from '../shared/validate.ts';
import { checkPlacement, takeSlot } from './booking.ts';
import type { WaitlistDeps } from './ports.ts';
import { appointmentJson, dateOutOfRange, type ClinicMoment } from './scheduling.ts';
import { slotFreed } from './slot-offers.ts';
import { WAITLIST_STAFF, holdUntil, type WaitlistEntry, type WaitlistOffer } from './waitlist.ts';

const nowInClinic = (deps: WaitlistDeps): ClinicMoment => clinicDateTime(deps.clock.now(), deps.timeZone);

export interface WaitlistEntryJson {
  id: number;
  doctor: { id: number; name: string };
  doctor_name: string;
  from_date: string;
  to_date: string;
  joined_at: string;
  /** The slot held for the patient now, if any. */
  offer: { date: string; start_time: string; end_time: string; expires_at: string; hold_until: string } | null;
}

const entryJson = (e: WaitlistEntry, timeZone: string): WaitlistEntryJson => ({
  id: e.id,
  doctor: e.doctor,
  doctor_name: e.doctor.name,
  from_date: e.fromDate,
  to_date: e.toDate,
  joined_at: e.joinedAt.toISOString(),
  offer: e.offer && {
    date: e.offer.date,
    start_time: e.offer.startTime,
    end_time: e.offer.endTime,
    expires_at: e.offer.expiresAt.toISOString(),
    hold_until: holdUntil(e.offer.expiresAt, timeZone),
  },
});

/** The doctor and the days of an entry, within the booking window, the last day not before the first. */
function readEntry(v: Validator, today: string) {
  const doctorId = v.id('doctor_id');
  const fromDate = v.date('from_date');
  const toDate = v.date('to_date');
  for (const [field, date] of [
    ['from_date', fromDate],
    ['to_date', toDate],
  ] as const) {
    const problem = date ? dateOutOfRange(date, today) : undefined;
    if (problem) v.fail(field, problem);
  }
  if (fromDate && toDate && !v.failed('from_date') && !v.failed('to_date') && toDate < fromDate)
    v.fail('to_date', 'must not be before from_date');
  return { doctorId, fromDate, toDate };
}

async function join(
  deps: WaitlistDeps,
  patientId: number,
  entry: ReturnType<typeof readEntry>,
  actor: Actor,
): Promise<WaitlistEntryJson> {
  return deps.transaction(async (tx) => {
    if (!(await tx.schedules.isActiveDoctor(entry.doctorId)))
      throw invalid({ doctor_id: ['is not a doctor of the clinic'] });
    // One patient's entries are written one after another, so two tabs cannot both add an overlapping one.
    const patient = await tx.appointments.lockPatient(patientId);
    if (!patient) throw invalid({ patient_id: ['is not a registered patient'] });
    // An offer is an e-mail with its link: a walk-in without an address would wait in line for nothing.
    if (!patient.hasEmail)
      throw invalid({ patient_id: ['has no e-mail address to receive an offer: add one to their details first'] });
    if (await tx.waitlist.overlapping(patientId, entry.doctorId, entry.fromDate, entry.toDate)) {
      throw conflict('waitlist_duplicate', "You are already on this doctor's waitlist for some of these days", {
        from_date: ["overlaps an entry on this doctor's waitlist"],
      });
    }
    const id = await tx.waitlist.join({ patientId, ...entry, joinedAt: deps.clock.now() });
    await tx.audit.record({
      actor,
      action: 'create',
      entity: 'waitlist_entry',
      entityId: id,
      patientId,
      requestId: actor.requestId,
      details: { doctor_id: entry.doctorId, from_date: entry.fromDate, to_date: entry.toDate },
    });
    const joined = await tx.waitlist.entry(id);
    if (!joined) throw new Error('the new waitlist entry was not read back');
    return entryJson(joined, deps.timeZone);
  });
}

const patientOf = (actor: Actor) => ownPatientId(actor, 'Only patients have a waitlist of their own');

/** The signed-in patient joins a doctor's waitlist for the days from `from_date` to `to_date`. */
export async function joinWaitlist(deps: WaitlistDeps, body: unknown, actor: Actor) {
  const patientId = patientOf(actor);
  const v = new Validator(asRecord(body));
  const entry = readEntry(v, nowInClinic(deps).date);
  v.done();
  return join(deps, patientId, entry, actor);
}

/** Staff put a patient on a doctor's waitlist (at the desk, on the phone). */
export async function addToWaitlist(deps: WaitlistDeps, body: unknown, actor: Actor) {
  if (!WAITLIST_STAFF.includes(actor.role)) throw forbidden();
  const v = new Validator(asRecord(body));
  const patientId = v.id('patient_id');
  const entry = readEntry(v, nowInClinic(deps).date);
  v.done();
  return join(deps, patientId, entry, actor);
}

/** The patient's entries that still have days to come, each with the slot held for them now; `q` searches the doctor. */
export async function myWaitlist(
  deps: WaitlistDeps,
  query: Record<string, unknown>,
  actor: Actor,
): Promise<Page<WaitlistEntryJson>> {
  const page = await deps.waitlist.entriesOf(patientOf(actor), nowInClinic(deps).date, pageRequest(query));
  return { ...page, items: page.items.map((e) => entryJson(e, deps.timeZone)) };
}

/** The patient leaves one of their entries; a slot held for it goes to the next in line. */
export async function leaveWaitlist(deps: WaitlistDeps, rawId: RawId, actor: Actor): Promise<void> {
  const patientId = patientOf(actor);
  const id = pathId(rawId, 'Waitlist entry');
  const now = deps.clock.now();
  await recordingRefusals(deps.audit, () =>
    deps.transaction(async (tx) => {
      const entry = await tx.waitlist.lockEntry(id);
      if (entry?.patientId !== patientId) {
        throw refusal('Waitlist entry', actor, {
          entity: 'waitlist_entry',
          entityId: id,
          patientId: entry?.patientId,
          attempt: 'leave',
        });
      }
      await tx.waitlist.closeEntry(id, 'left', now);
      await tx.audit.record({
        actor,
        action: 'delete',
        entity: 'waitlist_entry',
        entityId: id,
        patientId,
        requestId: actor.requestId,
      });
      const offer = await tx.waitlist.lockOpenOfferOf(id);
      if (offer) {
        await tx.waitlist.closeOffer(offer.id, 'withdrawn', now);
        await slotFreed(deps, tx, { doctorId: offer.doctor.id, date: offer.date, startTime: offer.startTime });
      }
    }),
  );
}

// --- the offer's link

const LINK_INVALID = 'This link is not valid. Sign in to see your waitlist.';

export interface WaitlistOfferJson {
  doctor: { id: number; name: string };
  date: string;
  start_time: string;
  end_time: string;
  expires_at: string;
  hold_until: string;
}

function readToken(body: unknown): string {
  const v = new Validator(asRecord(body));
  const token = v.text('token', { max: 200 });
  v.done();
  return token;
}

/** The offer, if it may still be answered: open and its hold not over; otherwise why not, as a 409 with a code. */
function openOffer(offer: WaitlistOffer | undefined, now: Date): WaitlistOffer {
  if (!offer) throw new DomainError('invalid', 'offer_link_invalid', LINK_INVALID, { token: [LINK_INVALID] });
  if (offer.status === 'accepted')
    throw conflict('offer_accepted', 'You accepted this offer already: the appointment is in My Appointments.');
  if (offer.status === 'expired' || (offer.status === 'open' && offer.expiresAt <= now)) {
    throw conflict(
      'offer_expired',
      'This offer has expired, and the time was offered to the next patient on the waitlist.',
    );
  }
  if (offer.status !== 'open')
    throw conflict('offer_closed', 'This offer was declined or withdrawn and can no longer be accepted.');
  return offer;
}

const offerJson = (o: WaitlistOffer, timeZone: string): WaitlistOfferJson => ({
  doctor: o.doctor,
  date: o.date,
  start_time: o.startTime,
  end_time: o.endTime,
  expires_at: o.expiresAt.toISOString(),
  hold_until: holdUntil(o.expiresAt, timeZone),
});

/** What an offer's link holds, shown before the patient accepts or declines it. */
export async function previewOffer(deps: WaitlistDeps, body: unknown): Promise<{ offer: WaitlistOfferJson }> {
  const offer = openOffer(await deps.waitlist.findOffer(readToken(body)), deps.clock.now());
  return { offer: offerJson(offer, deps.timeZone) };
}

/** Books the held slot for the offered patient, under the offer's and the doctor's locks, as a booking of their own. */
export async function acceptOffer(deps: WaitlistDeps, body: unknown) {
  const token = readToken(body);
  const now = nowInClinic(deps);
  const appointment = await deps.transaction(async (tx) => {
    const offer = openOffer(await tx.waitlist.findOffer(token, { lock: true }), deps.clock.now());
    const placement = { doctorId: offer.doctor.id, scheduleId: offer.scheduleId, date: offer.date };
    const slotGone = () => conflict('offer_closed', 'This time is no longer available.');
    await checkPlacement(
      tx,
      placement,
      { actor: null, patientId: offer.patient.id, limits: deps.bookingLimits, slotGone },
      now,
    );
    return takeSlot(deps, tx, {
      ...placement,
      patientId: offer.patient.id,
      actor: null,
      hold: { offerId: offer.id, entryId: offer.entryId },
      details: { via: 'waitlist offer', offer_id: offer.id },
    });
  });
  return { appointment: appointmentJson(appointment) };
}

/** The patient refuses the held slot; it goes to the next in line, and they stay on the waitlist for other times. */
export async function declineOffer(deps: WaitlistDeps, body: unknown): Promise<{ message: string }> {
  const token = readToken(body);
  const now = deps.clock.now();
  await deps.transaction(async (tx) => {
    const offer = openOffer(await tx.waitlist.findOffer(token, { lock: true }), now);
    await tx.waitlist.closeOffer(offer.id, 'declined', now);
    await tx.audit.record({
      actor: null,
      action: 'offer_declined',
      entity: 'waitlist_entry',
      entityId: offer.entryId,
      patientId: offer.patient.id,
      details: { offer_id: offer.id },
    });
    await slotFreed(deps, tx, { doctorId: offer.doctor.id, date: offer.date, startTime: offer.startTime });
  });
  return { message: 'You declined this time. You stay on the waitlist for other times.' };
}

// --- expiry

/** How many expired offers one transaction hands on: a long backlog is worked off over several rounds. */
const EXPIRY_BATCH = 50;

/**
 * Ends the holds that ran out by now and offers each slot to the next in line; the worker calls it each round.
 * The batch is expired in one statement and handed on in the same transaction, so an offer is never expired
 * without its slot going to the next in line, and offers another instance is expiring are skipped, so each is
 * handed on once. Every offer of the batch is closed before any slot is handed on, so a patient whose hold ran
 * out in it is in line for the batch's other slots whatever order they are handed on in (closed one at a time,
 * that depended on the order).
 */
export async function expireOffers(deps: WaitlistDeps): Promise<number> {
  const now = deps.clock.now();
  return deps.transaction(async (tx) => {
    const expired = await tx.waitlist.expireDue(now, EXPIRY_BATCH);
    for (const offer of expired) {
      await tx.audit.record({
        actor: null,
        action: 'offer_expired',
        entity: 'waitlist_entry',
        entityId: offer.entryId,
        patientId: offer.patient.id,
        details: { offer_id: offer.id },
      });
      await slotFreed(deps, tx, { doctorId: offer.doctor.id, date: offer.date, startTime: offer.startTime });
    }
    return expired.length;
  });
}
