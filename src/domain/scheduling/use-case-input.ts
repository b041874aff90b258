import { ownPatientId, type Actor } from '../shared/actor.ts';
import { clinicDateTime } from '../shared/clock.ts';
import type { Validator } from '../shared/validate.ts';
import type { SchedulingDeps, SlotChoice } from './ports.ts';
import { dateOutOfRange, type ClinicMoment } from './scheduling.ts';

export const nowInClinic = (deps: SchedulingDeps): ClinicMoment => clinicDateTime(deps.clock.now(), deps.timeZone);

/** `field` (default today) checked against the booking window, its problems added to `v`. */
export function readDate(v: Validator, today: string, field = 'date'): string {
  const date = v.date(field, { optional: true }) ?? today;
  const problem = dateOutOfRange(date, today);
  if (problem) v.fail(field, problem);
  return date;
}

export const readChoice = (v: Validator, today: string): SlotChoice => ({
  scheduleId: v.id('schedule_id'),
  date: readDate(v, today),
});

export const patientOf = (actor: Actor) => ownPatientId(actor, 'Only patients have appointments of their own');
