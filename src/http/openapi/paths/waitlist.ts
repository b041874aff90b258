import type { ModulePaths } from '../module-paths.ts';
import { MAX_DAYS_AHEAD } from '../../../domain/scheduling/scheduling.ts';
import { WAITLIST_STAFF } from '../../../domain/scheduling/waitlist.ts';
import { date, dateTime, id, listOf, nullable, object, ref, string, time, type Schema } from '../schema.ts';
import { pageQuery } from '../components.ts';

const holdUntil = string({
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2} ([01][0-9]|2[0-3]):[0-5][0-9]$',
  description: "When the hold ends, on the clinic's wall clock: `yyyy-MM-dd HH:mm`",
});

const entryDays = {
  from_date: date(`The first day the patient could come: from today to ${MAX_DAYS_AHEAD} days ahead`),
  to_date: date('The last day, not before `from_date`, within the same window'),
};

const token = (): Schema =>
  object({ token: string({ minLength: 1, maxLength: 200, description: "The token of the offer e-mail's link" }) });

const refusals =
  'An unknown token → 422 `offer_link_invalid`; the hold over → 409 `offer_expired`; accepted already → 409 `offer_accepted`; declined or withdrawn → 409 `offer_closed`.';

/** The operations of src/http/routes/waitlist.ts. */
export const waitlistPaths: ModulePaths = {
  tag: 'Waitlist',
  description:
    "A patient waits for a doctor's time on a range of days. When a slot on one of those days is freed, the first patient in line is e-mailed an offer " +
    "and the slot is held for them for a while (a hold nobody else can book); they accept or decline it through the e-mail's link, without signing in. " +
    'Declined or expired, the slot goes to the next in line. Patients manage their own entries; admins and reception add patients (who need an e-mail address).',
  schemas: {
    WaitlistEntry: object({
      id: id(),
      doctor: ref('Named'),
      doctor_name: string(),
      from_date: date(),
      to_date: date(),
      joined_at: dateTime(),
      offer: nullable(
        object(
          { date: date(), start_time: time(), end_time: time(), expires_at: dateTime(), hold_until: holdUntil },
          { description: 'The slot held for the patient now' },
        ),
      ),
    }),
  },
  operations: {
    'GET /api/patient/waitlist': {
      summary: 'My waitlist entries',
      description:
        'Patients only. Their waiting entries whose days have not all passed, in the order joined; `q` searches the doctor.',
      access: 'patient',
      query: pageQuery,
      answers: { 200: listOf('entries', ref('WaitlistEntry')) },
    },
    'POST /api/patient/waitlist': {
      summary: "Join a doctor's waitlist",
      description:
        'Patients only; audited. An unknown or inactive doctor → 422 naming `doctor_id`; days outside the booking window, or `to_date` before `from_date` → 422 naming ' +
        'the field; an entry for this doctor overlapping those days → 409 `waitlist_duplicate`.',
      access: 'patient',
      body: object({ doctor_id: id(), ...entryDays }),
      answers: { 201: ref('WaitlistEntry') },
      errors: [409],
    },
    'DELETE /api/patient/waitlist/{id}': {
      summary: "Leave a doctor's waitlist",
      description:
        "Patients only; audited. The entry's held slot goes to the next in line. Another patient's entry, or one left already → 404.",
      access: 'patient',
      answers: { 204: null },
    },
    'POST /api/waitlist': {
      summary: "Put a patient on a doctor's waitlist",
      description:
        'Admins and reception; audited. An unknown patient, or one without an e-mail address (an offer comes by e-mail) → 422 naming `patient_id`; ' +
        'otherwise as a patient joining.',
      access: WAITLIST_STAFF,
      body: object({ patient_id: id(), doctor_id: id(), ...entryDays }),
      answers: { 201: ref('WaitlistEntry') },
      errors: [409],
    },
    'POST /api/waitlist-offers/preview': {
      summary: 'What an offer holds',
      description: `Public: the token of an offer e-mail's link. Nothing changes. ${refusals}`,
      access: 'public',
      body: token(),
      answers: {
        200: object({
          offer: object({
            doctor: ref('Named'),
            date: date(),
            start_time: time(),
            end_time: time(),
            expires_at: dateTime(),
            hold_until: holdUntil,
          }),
        }),
      },
      errors: [409],
    },
    'POST /api/waitlist-offers/accept': {
      summary: 'Accept an offer',
      description:
        `Public. Books the held slot for the offered patient (audited, a confirmation e-mail). ${refusals} The booking's own refusals apply too ` +
        '(409 `patient_busy`, `booking_limit`); a slot no longer offered → 409 `offer_closed`.',
      access: 'public',
      body: token(),
      answers: { 200: object({ appointment: ref('Appointment') }) },
      errors: [409],
    },
    'POST /api/waitlist-offers/decline': {
      summary: 'Decline an offer',
      description: `Public. The slot is offered to the next in line, or free when nobody is left; the patient stays on the waitlist. ${refusals}`,
      access: 'public',
      body: token(),
      answers: { 200: object({ message: string() }) },
      errors: [409],
    },
  },
};
