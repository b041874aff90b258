import type { Actor } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { pathId, type RawId } from '../shared/validate.ts';
import type { SchedulingDeps, SchedulingTxDeps } from './ports.ts';
import { readPattern, weeklySlotJson, type WeeklySlotJson } from './scheduling.ts';

/** A doctor's weekly pattern, as the admin's schedule dialog shows it. */
export interface ScheduleJson {
  slots: WeeklySlotJson[];
}

const scheduleOf = async (tx: SchedulingTxDeps, doctorId: number): Promise<ScheduleJson> => ({
  slots: (await tx.schedules.currentSlots(doctorId)).map(weeklySlotJson),
});

export async function getSchedule(deps: SchedulingDeps, rawDoctorId: RawId) {
  const doctorId = pathId(rawDoctorId, 'Doctor');
  if (!(await deps.schedules.isActiveDoctor(doctorId))) throw notFound('Doctor');
  return scheduleOf(deps, doctorId);
}

/**
 * Replaces a doctor's weekly pattern with explicit slots or working hours plus a slot length (`medora schedules
 * set` sends the latter). Appointments already booked keep their slot and times.
 */
export async function replaceSchedule(deps: SchedulingDeps, rawDoctorId: RawId, body: unknown, actor: Actor) {
  const doctorId = pathId(rawDoctorId, 'Doctor');
  const plan = readPattern(body);
  return deps.transaction(async (tx) => {
    if (!(await tx.schedules.lockDoctor(doctorId))) throw notFound('Doctor');
    await tx.schedules.replace(doctorId, plan, deps.clock.now());
    await tx.audit.record({ actor, action: 'update', entity: 'schedule', entityId: doctorId, requestId: actor.requestId, details: { slots: plan.length } });
    return scheduleOf(tx, doctorId);
  });
}
