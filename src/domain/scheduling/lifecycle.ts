/** A visit's lifecycle: which event moves an appointment from which status to which (migration 0011 agrees). */
import { conflict, type DomainError } from '../shared/errors.ts';
import { hasStarted, type AppointmentStatus, type ClinicMoment } from './scheduling.ts';

export type VisitEvent = 'check_in' | 'complete' | 'no_show' | 'cancel' | 'undo_check_in' | 'undo_no_show';

/** What the front desk does to a visit by its clock: check in, mark a no-show, or take either back the same day. */
export const DESK_EVENTS = ['check_in', 'no_show', 'undo_check_in', 'undo_no_show'] as const;
export type DeskEvent = (typeof DESK_EVENTS)[number];

const MOVES: Record<VisitEvent, { from: readonly AppointmentStatus[]; to: AppointmentStatus }> = {
  check_in: { from: ['scheduled'], to: 'checked_in' },
  // A doctor may record a visit nobody checked in.
  complete: { from: ['scheduled', 'checked_in'], to: 'completed' },
  no_show: { from: ['scheduled'], to: 'no_show' },
  cancel: { from: ['scheduled', 'checked_in'], to: 'cancelled' },
  // A desk's slip: the visit is open again, as booked.
  undo_check_in: { from: ['checked_in'], to: 'scheduled' },
  undo_no_show: { from: ['no_show'], to: 'scheduled' },
};

const DOING: Record<VisitEvent, string> = {
  check_in: 'checked in',
  complete: 'recorded',
  no_show: 'marked as a no-show',
  cancel: 'cancelled',
  undo_check_in: 'taken back from check-in',
  undo_no_show: 'taken back from no-show',
};

/** Whether `event` may happen to an appointment in `status`. */
export const allows = (status: AppointmentStatus, event: VisitEvent) => MOVES[event].from.includes(status);

/** Whether the doctor can write the visit's record now: it is still open and has begun. */
export const canRecordNow = (
  visit: { status: AppointmentStatus; date: string; startTime: string },
  now: ClinicMoment,
) => allows(visit.status, 'complete') && hasStarted(visit.date, visit.startTime, now);

/** The status `event` moves an appointment in `status` to, or 409 `invalid_transition`. */
export function transition(status: AppointmentStatus, event: VisitEvent): AppointmentStatus {
  const move = MOVES[event];
  if (!allows(status, event)) {
    throw conflict(
      'invalid_transition',
      `This appointment is ${status.replace('_', ' ')} and cannot be ${DOING[event]}`,
    );
  }
  return move.to;
}

type DeskVisit = { status: AppointmentStatus; date: string; startTime: string };

/**
 * Why the desk may not do `event` to the visit now, if it may not: a patient is checked in on the visit's day, is
 * a no-show only once the visit's start time has passed, and either is taken back only on the visit's day.
 */
function deskRefusal(visit: DeskVisit, event: DeskEvent, now: ClinicMoment): DomainError | undefined {
  if (event === 'check_in' && visit.date !== now.date) {
    return conflict('not_visit_day', `A patient is checked in on the day of the visit, ${visit.date}`);
  }
  if (event === 'no_show' && !hasStarted(visit.date, visit.startTime, now)) {
    return conflict(
      'visit_not_started',
      `A visit becomes a no-show only after it starts at ${visit.startTime} on ${visit.date}`,
    );
  }
  if ((event === 'undo_check_in' || event === 'undo_no_show') && visit.date !== now.date) {
    return conflict('not_visit_day', `A visit is ${DOING[event]} only on its day, ${visit.date}`);
  }
  return undefined;
}

/** `transition` with the clock's rules of the desk (`deskRefusal`). */
export function deskTransition(visit: DeskVisit, event: DeskEvent, now: ClinicMoment): AppointmentStatus {
  const to = transition(visit.status, event);
  const refusal = deskRefusal(visit, event, now);
  if (refusal) throw refusal;
  return to;
}

/** What the desk can do to the visit now, so a screen offers only what the server would accept. */
export const deskActions = (visit: DeskVisit, now: ClinicMoment): DeskEvent[] =>
  DESK_EVENTS.filter((event) => allows(visit.status, event) && !deskRefusal(visit, event, now));
