import { requireDesk, type Actor } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { pathId, type RawId } from '../shared/validate.ts';
import { appointmentEntry } from './booking.ts';
import { deskTransition, type DeskEvent } from './lifecycle.ts';
import type { SchedulingDeps } from './ports.ts';
import { appointmentJson } from './scheduling.ts';
import { nowInClinic } from './use-case-input.ts';

/**
 * Reception (or an admin) checks a patient in on the visit's day, marks a started visit a no-show, or takes
 * either back on the visit's day; audited.
 */
async function deskEvent(deps: SchedulingDeps, rawId: RawId, actor: Actor, event: DeskEvent) {
  requireDesk(actor);
  const id = pathId(rawId, 'Appointment');
  const now = nowInClinic(deps);
  const changed = await deps.transaction(async (tx) => {
    const found = await tx.appointments.lock(id);
    if (!found) throw notFound('Appointment');
    const status = deskTransition(found, event, now);
    await tx.appointments.setStatus(id, status, deps.clock.now());
    await tx.audit.record(appointmentEntry(event, id, found.patient.id, actor, { from: found.status, to: status }));
    return { ...found, status };
  });
  return appointmentJson(changed);
}

export const checkIn = (deps: SchedulingDeps, rawId: RawId, actor: Actor) => deskEvent(deps, rawId, actor, 'check_in');
export const markNoShow = (deps: SchedulingDeps, rawId: RawId, actor: Actor) =>
  deskEvent(deps, rawId, actor, 'no_show');
export const undoCheckIn = (deps: SchedulingDeps, rawId: RawId, actor: Actor) =>
  deskEvent(deps, rawId, actor, 'undo_check_in');
export const undoNoShow = (deps: SchedulingDeps, rawId: RawId, actor: Actor) =>
  deskEvent(deps, rawId, actor, 'undo_no_show');
