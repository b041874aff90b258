/** A visit's lifecycle: which event moves an appointment from which status to which (migration 0011 agrees). */
import { conflict } from '../shared/errors.ts';
import { hasStarted, type AppointmentStatus, type ClinicMoment } from './scheduling.ts';

export type VisitEvent = 'check_in' | 'complete' | 'no_show' | 'cancel';

const MOVES: Record<VisitEvent, { from: readonly AppointmentStatus[]; to: AppointmentStatus }> = {
  check_in: { from: ['scheduled'], to: 'checked_in' },
  // A doctor may record a visit nobody checked in.
  complete: { from: ['scheduled', 'checked_in'], to: 'completed' },
  no_show: { from: ['scheduled'], to: 'no_show' },
  cancel: { from: ['scheduled', 'checked_in'], to: 'cancelled' },
};

const DOING: Record<VisitEvent, string> = { check_in: 'checked in', complete: 'recorded', no_show: 'marked as a no-show', cancel: 'cancelled' };

/** Whether `event` may happen to an appointment in `status`. */
export const allows = (status: AppointmentStatus, event: VisitEvent) => MOVES[event].from.includes(status);

/** Whether the doctor can write the visit's record now: it is still open and has begun. */
export const canRecordNow = (visit: { status: AppointmentStatus; date: string; startTime: string }, now: ClinicMoment) =>
  allows(visit.status, 'complete') && hasStarted(visit.date, visit.startTime, now);

/** The status `event` moves an appointment in `status` to, or 409 `invalid_transition`. */
export function transition(status: AppointmentStatus, event: VisitEvent): AppointmentStatus {
  const move = MOVES[event];
  if (!allows(status, event)) {
    throw conflict('invalid_transition', `This appointment is ${status.replace('_', ' ')} and cannot be ${DOING[event]}`);
  }
  return move.to;
}

/**
 * `transition` with the clock's rules of the desk: a patient is checked in on the visit's day, and is a no-show
 * only once the visit's start time has passed.
 */
export function deskTransition(visit: { status: AppointmentStatus; date: string; startTime: string }, event: 'check_in' | 'no_show', now: ClinicMoment): AppointmentStatus {
  const to = transition(visit.status, event);
  if (event === 'check_in' && visit.date !== now.date) {
    throw conflict('not_visit_day', `A patient is checked in on the day of the visit, ${visit.date}`);
  }
  if (event === 'no_show' && !hasStarted(visit.date, visit.startTime, now)) {
    throw conflict('visit_not_started', `A visit becomes a no-show only after it starts at ${visit.startTime} on ${visit.date}`);
  }
  return to;
}
