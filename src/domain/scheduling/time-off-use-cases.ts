import { listEntry } from '../audit/audit.ts';
import { requireDesk, type Actor } from '../shared/actor.ts';
import { addDays } from '../shared/clock.ts';
import { notFound } from '../shared/errors.ts';
import { MAX_PER_PAGE, pageRequest, type Page } from '../shared/pagination.ts';
import { readFields, readInput } from '../shared/read-fields.ts';
import { Validator, asRecord, pathId, type RawId } from '../shared/validate.ts';
import type { SchedulingDeps, SchedulingTxDeps, VisitToMove } from './ports.ts';
import { hasStarted } from './scheduling.ts';
import { MAX_TIME_OFF_DAYS, kindOf, timeOffJson, type NewTimeOff, type TimeOffKind } from './time-off.ts';
import { nowInClinic } from './use-case-input.ts';
import { appointmentJson } from './appointment-answers.ts';
import {
  ClosureRequest,
  LeaveRequest,
  TimeOffListQuery,
  type TimeOffAddedJson,
  type TimeOffJson,
  type VisitToMoveJson,
} from './scheduling-shapes.ts';

/** Leave or a closure from a request: whole days, or with both times only part of each day. */
function readTimeOff(body: unknown, today: string, kind: TimeOffKind): Omit<NewTimeOff, 'doctorId'> {
  const v = new Validator(asRecord(body));
  const request = readFields(v, kind === 'leave' ? LeaveRequest : ClosureRequest);
  const startsOn = request.starts_on;
  const endsOn = request.ends_on ?? startsOn;
  if (!v.failed('starts_on') && !v.failed('ends_on')) {
    if (endsOn < startsOn) v.fail('ends_on', 'must be on or after starts_on');
    else if (endsOn < today) v.fail('ends_on', 'must not be in the past');
    else if (endsOn > addDays(startsOn, MAX_TIME_OFF_DAYS - 1))
      v.fail('ends_on', `must be at most ${MAX_TIME_OFF_DAYS} days after starts_on`);
  }
  const startTime = request.start_time ?? null;
  const endTime = request.end_time ?? null;
  if (startTime && !endTime && !v.failed('end_time')) v.fail('end_time', 'is required with start_time');
  if (endTime && !startTime && !v.failed('start_time')) v.fail('start_time', 'is required with end_time');
  if (startTime && endTime && !v.failed('start_time') && !v.failed('end_time') && endTime <= startTime)
    v.fail('end_time', 'must be after start_time');
  v.done();
  return { startsOn, endsOn, startTime, endTime, reason: request.reason ?? '' };
}

async function addTimeOff(
  deps: SchedulingDeps,
  tx: SchedulingTxDeps,
  timeOff: NewTimeOff,
  actor: Actor,
): Promise<TimeOffAddedJson> {
  const added = await tx.timeOff.add(timeOff);
  await tx.audit.record({
    actor,
    action: 'create',
    entity: 'time_off',
    entityId: added.id,
    requestId: actor.requestId,
    details: timeOffJson(added),
  });
  const visits = await tx.timeOff.visitsToMove(
    { today: nowInClinic(deps).date, timeOffId: added.id },
    { page: 1, perPage: MAX_PER_PAGE, q: '' },
  );
  return {
    time_off: timeOffJson(added),
    visits_to_move: visitsJson(deps, visits).items,
    visits_to_move_total: visits.total,
  };
}

/**
 * A doctor's leave, whole days or part of each; audited. Its slots are no longer offered, but visits already
 * booked inside it stay booked: the answer lists them for the desk to move or cancel.
 */
export async function addLeave(
  deps: SchedulingDeps,
  rawDoctorId: RawId,
  body: unknown,
  actor: Actor,
): Promise<TimeOffAddedJson> {
  const doctorId = pathId(rawDoctorId, 'Doctor');
  const leave = readTimeOff(body, nowInClinic(deps).date, 'leave');
  return deps.transaction(async (tx) => {
    // Locked as a booking locks it, so no booking of the doctor slips in unseen between this and the list it answers.
    if (!(await tx.schedules.lockDoctor(doctorId))) throw notFound('Doctor');
    return addTimeOff(deps, tx, { ...leave, doctorId }, actor);
  });
}

/**
 * A closure of the whole clinic (a holiday), whole days or part of each; audited. Like leave, for every doctor.
 * A booking made while it is being added may miss the answer's list, never the desk's (`visitsToMove`).
 */
export async function addClosure(deps: SchedulingDeps, body: unknown, actor: Actor): Promise<TimeOffAddedJson> {
  const closure = readTimeOff(body, nowInClinic(deps).date, 'closure');
  return deps.transaction((tx) => addTimeOff(deps, tx, { ...closure, doctorId: null }, actor));
}

/** Leave and closures that end today or later (or from `from`), soonest first: with `doctor_id` that doctor's leave and the closures. */
export async function listTimeOff(deps: SchedulingDeps, query: Record<string, unknown>): Promise<Page<TimeOffJson>> {
  const request = readInput(TimeOffListQuery, query);
  const doctorId = request.doctor_id;
  const from = request.from ?? nowInClinic(deps).date;
  const page = await deps.timeOff.list({ doctorId, from }, pageRequest(query));
  return { ...page, items: page.items.map(timeOffJson) };
}

/** Takes leave or a closure back: its slots are offered again; audited. */
export async function removeTimeOff(deps: SchedulingDeps, rawId: RawId, actor: Actor): Promise<TimeOffJson> {
  const id = pathId(rawId, 'Time off');
  return deps.transaction(async (tx) => {
    const gone = await tx.timeOff.remove(id);
    if (!gone) throw notFound('Time off');
    await tx.audit.record({
      actor,
      action: 'delete',
      entity: 'time_off',
      entityId: id,
      requestId: actor.requestId,
      details: { kind: kindOf(gone) },
    });
    return timeOffJson(gone);
  });
}

function visitsJson(deps: SchedulingDeps, page: Page<VisitToMove>): Page<VisitToMoveJson> {
  const now = nowInClinic(deps);
  return {
    ...page,
    items: page.items.map(({ appointment, timeOff }) => ({
      ...appointmentJson(appointment),
      has_started: hasStarted(appointment.date, appointment.startTime, now),
      time_off: timeOffJson(timeOff),
    })),
  };
}

/** The desk's list of visits still scheduled inside a leave or a closure, from today on, soonest first. Audited. */
export async function visitsToMove(
  deps: SchedulingDeps,
  query: Record<string, unknown>,
  actor: Actor,
): Promise<Page<VisitToMoveJson>> {
  requireDesk(actor);
  const request = pageRequest(query);
  const page = await deps.timeOff.visitsToMove({ today: nowInClinic(deps).date }, request);
  await deps.audit.record(listEntry(actor, 'appointment', request, { to_move: true }));
  return visitsJson(deps, page);
}
