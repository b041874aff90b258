import { memoized } from './memo.ts';

/** The domain never reads the real time itself; it is handed a Clock. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export function fixedClock(iso: string): Clock {
  const at = new Date(iso);
  return { now: () => new Date(at) };
}

// Building a formatter costs far more than using one, and a request may ask for the clinic's time many times.
const wallClockOf = memoized(
  (timeZone) =>
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }),
);

// Since 1973 every zone's offset is whole minutes (Monrovia's -0:44:30 ended in 1972), so every instant of one UTC
// minute shows the same wall-clock minute; a request asks for "now" several times within one.
const WHOLE_MINUTE_OFFSETS_FROM = Date.UTC(1973, 0, 1);
let lastMinute = { timeZone: '', minute: Number.NaN, date: '', time: '' };

/** The wall-clock date and time of `instant` in the clinic's IANA zone, as yyyy-MM-dd and HH:mm. */
export function clinicDateTime(instant: Date, timeZone: string): { date: string; time: string } {
  const minute = Math.floor(instant.getTime() / 60_000);
  if (minute === lastMinute.minute && timeZone === lastMinute.timeZone)
    return { date: lastMinute.date, time: lastMinute.time };
  const parts = Object.fromEntries(
    wallClockOf(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const wall = { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
  if (instant.getTime() >= WHOLE_MINUTE_OFFSETS_FROM) lastMinute = { timeZone, minute, ...wall };
  return wall;
}

export function clinicToday(clock: Clock, timeZone: string): string {
  return clinicDateTime(clock.now(), timeZone).date;
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** ISO weekday of a yyyy-MM-dd date: Monday 1 … Sunday 7. */
export function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The instant at which the clinic's wall clock shows `date` and `time` (HH:mm); in a DST gap, an hour either side. */
export function clinicInstant(date: string, time: string, timeZone: string): Date {
  const wall = Date.parse(`${date}T${time}:00Z`);
  const offsetAt = (instant: number) => {
    const local = clinicDateTime(new Date(instant), timeZone);
    return Date.parse(`${local.date}T${local.time}:00Z`) - Math.floor(instant / 60_000) * 60_000;
  };
  // The offset at the wall time read as UTC is off by the offset itself near a change; asking again settles it.
  return new Date(wall - offsetAt(wall - offsetAt(wall)));
}
