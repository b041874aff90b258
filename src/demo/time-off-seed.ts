import type { App } from '../app.ts';
import { addDays, clinicToday, isoWeekday } from '../domain/shared/clock.ts';
import type { Actor } from '../domain/shared/actor.ts';

/** The first Monday-to-Friday date from `from` on. */
const weekdayFrom = (from: string): string => (isoWeekday(from) <= 5 ? from : weekdayFrom(addDays(from, 1)));

/**
 * Working hours beyond the default week: the physiotherapist takes a lunch break, the neurologist is on leave on
 * the next working day (his visit that day waits on the desk's list to be moved), and the clinic closes for a
 * holiday in a fortnight.
 */
export async function seedTimeOff(app: App, admin: Actor): Promise<void> {
  const physio = await app.doctors.getDoctorByEmail('sam.okafor@medora.test');
  const room = (await app.scheduling.getSchedule(physio.id)).hours[0]?.room;
  const hours = [1, 2, 3, 4, 5].flatMap((weekday) => [
    { weekday, start_time: '09:00', end_time: '12:30', slot_minutes: 20, room_id: room?.id },
    { weekday, start_time: '13:30', end_time: '17:00', slot_minutes: 20, room_id: room?.id },
  ]);
  await app.scheduling.replaceSchedule(physio.id, { hours }, admin);
  const today = clinicToday(app.clock, app.config.clinicTz);
  const neurologist = await app.doctors.getDoctorByEmail('stephen.park@medora.test');
  await app.scheduling.addLeave(
    neurologist.id,
    { starts_on: weekdayFrom(addDays(today, 1)), reason: 'Neurology conference' },
    admin,
  );
  await app.scheduling.addClosure(
    { starts_on: weekdayFrom(addDays(today, 14)), reason: 'Founders’ Day: the clinic is closed' },
    admin,
  );
}
