/** What a doctor's availability over some days is worked out from, read once for the whole range. */
import type { SchedulingDeps } from './ports.ts';
import { heldFromOthers } from './waitlist.ts';

/**
 * The doctor's weekly pattern, the times taken from `from` to `to` (bookings, and waitlist offers holding a slot
 * for someone else than `patientId`), and the leave and closures over those days.
 */
export async function doctorWeek(
  deps: SchedulingDeps,
  doctorId: number,
  range: { from: string; to: string },
  patientId?: number,
) {
  const [pattern, bookings, holds, timeOff] = await Promise.all([
    deps.schedules.currentSlots(doctorId),
    deps.appointments.doctorBookings(doctorId, range.from, range.to),
    deps.waitlist.holds(doctorId, range.from, range.to),
    deps.timeOff.covering(doctorId, range.from, range.to),
  ]);
  return { pattern, taken: [...bookings, ...heldFromOthers(holds, patientId)], timeOff };
}
