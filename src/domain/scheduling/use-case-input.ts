import { ownPatientId, type Actor } from '../shared/actor.ts';
import { clinicDateTime } from '../shared/clock.ts';
import type { Validator } from '../shared/validate.ts';
import type { SchedulingDeps, SlotChoice } from './ports.ts';
import { dateOutOfRange, type ClinicMoment } from './scheduling.ts';

export const nowInClinic = (deps: SchedulingDeps): ClinicMoment => clinicDateTime(deps.clock.now(), deps.timeZone);

/** A date as read (default today; a date that did not read is today too, its problem already told), in the booking window. */
export function inBookingWindow(v: Validator, date: string | undefined, today: string, field = 'date'): string {
  const day = date ?? today;
  const problem = dateOutOfRange(day, today);
  if (problem) v.fail(field, problem);
  return day;
}

/** The slot a booking request chose, its date in the booking window. */
export const choiceOf = (v: Validator, request: { schedule_id: number; date?: string }, today: string): SlotChoice => ({
  scheduleId: request.schedule_id,
  date: inBookingWindow(v, request.date, today),
});

export const patientOf = (actor: Actor) => ownPatientId(actor, 'Only patients have appointments of their own');
