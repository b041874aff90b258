import type { Actor } from '../shared/actor.ts';
import { notFound } from '../shared/errors.ts';
import { pathId, type RawId } from '../shared/validate.ts';
import type { SchedulingDeps, SchedulingTxDeps } from './ports.ts';
import { weeklySlotJson, type WeeklySlotJson } from './scheduling.ts';
import { hoursRangeJson, readHours, sameHours, type HoursRangeJson } from './working-hours.ts';

/** A doctor's working hours and the weekly slots they give, as the admin's schedule form shows them. */
export interface ScheduleJson {
  hours: HoursRangeJson[];
  slots: WeeklySlotJson[];
}

const scheduleOf = async (tx: SchedulingTxDeps, doctorId: number): Promise<ScheduleJson> => {
  const [hours, slots] = await Promise.all([tx.schedules.hours(doctorId), tx.schedules.currentSlots(doctorId)]);
  return { hours: hours.map(hoursRangeJson), slots: slots.map(weeklySlotJson) };
};

export async function getSchedule(deps: SchedulingDeps, rawDoctorId: RawId) {
  const doctorId = pathId(rawDoctorId, 'Doctor');
  if (!(await deps.schedules.isActiveDoctor(doctorId))) throw notFound('Doctor');
  return scheduleOf(deps, doctorId);
}

/**
 * Replaces a doctor's working hours (any number of ranges a day, each with its slot length and room) and the
 * weekly slots cut from them. Appointments already booked keep their slot and times; the same hours again
 * change nothing and are not audited.
 */
export async function replaceSchedule(deps: SchedulingDeps, rawDoctorId: RawId, body: unknown, actor: Actor) {
  const doctorId = pathId(rawDoctorId, 'Doctor');
  const hours = readHours(body);
  return deps.transaction(async (tx) => {
    if (!(await tx.schedules.lockDoctor(doctorId))) throw notFound('Doctor');
    if (sameHours(hours, await tx.schedules.hours(doctorId))) return scheduleOf(tx, doctorId);
    await tx.schedules.replace(doctorId, hours, deps.clock.now());
    await tx.audit.record({
      actor,
      action: 'update',
      entity: 'schedule',
      entityId: doctorId,
      requestId: actor.requestId,
      details: { ranges: hours.length },
    });
    return scheduleOf(tx, doctorId);
  });
}
