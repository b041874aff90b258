/** A doctor's month at a glance for booking: each day open (with its free slots), full, closed and why, off, or outside. */
import { addDays, isoWeekday } from '../shared/clock.ts';
import { dayAvailability, type ClinicMoment, type DatedSpan, type WeeklySlot } from './scheduling.ts';
import { closedBy, kindOf, type TimeOff } from './time-off.ts';

/**
 * `open`: a slot is free; `full`: the doctor works but every slot is taken or over; `closed`: a clinic closure or
 * the doctor's leave takes every slot away; `off`: the doctor does not work that weekday; `outside`: before today or
 * after the booking window.
 */
export const MONTH_DAY_STATES = ['open', 'full', 'closed', 'off', 'outside'] as const;
export type MonthDayState = (typeof MONTH_DAY_STATES)[number];

export interface MonthDay {
  date: string;
  state: MonthDayState;
  free: number;
  /** What closes a `closed` day: a clinic closure before the doctor's leave when both do. */
  closedBy: TimeOff | null;
}

/** `yyyy-MM` of a date. */
export const monthOf = (date: string) => date.slice(0, 7);

/** The first and last dates of `month` (`yyyy-MM`). */
export function monthSpan(month: string): { first: string; last: string } {
  const first = `${month}-01`;
  return { first, last: addDays(`${nextMonth(month)}-01`, -1) };
}

/** The month after `month`, and the one before (`yyyy-MM`). */
export const nextMonth = (month: string) => monthOf(addDays(`${month}-28`, 7));
export const previousMonth = (month: string) => monthOf(addDays(`${month}-01`, -1));

/**
 * Every day of `month`, told as the booking page shows it, for a doctor's weekly `pattern`, the times `taken` by
 * bookings and others' holds, and the leave and closures of `timeOff`; days outside `window` are `outside`.
 */
export function monthDays(
  month: string,
  window: { from: string; to: string },
  week: { pattern: WeeklySlot[]; taken: DatedSpan[]; timeOff: TimeOff[] },
  now: ClinicMoment,
): MonthDay[] {
  const { first, last } = monthSpan(month);
  // Closures first: a closed clinic is the reason a day is closed even when the doctor is on leave too.
  const causes = [...week.timeOff].sort((a, b) => Number(a.doctor !== null) - Number(b.doctor !== null));
  const days: MonthDay[] = [];
  for (let date = first; date <= last; date = addDays(date, 1)) {
    const worked = week.pattern.filter((slot) => slot.weekday === isoWeekday(date));
    if (date < window.from || date > window.to) days.push({ date, state: 'outside', free: 0, closedBy: null });
    else if (worked.length === 0) days.push({ date, state: 'off', free: 0, closedBy: null });
    else {
      const { open, free } = dayAvailability(week.pattern, week.taken, week.timeOff, date, now);
      const cause =
        open.length === 0 ? (worked.map((slot) => closedBy(causes, date, slot)).find(Boolean) ?? null) : null;
      const state = cause ? 'closed' : free.length > 0 ? 'open' : 'full';
      days.push({ date, state, free: free.length, closedBy: cause });
    }
  }
  return days;
}

/** A closed day's reason on the wire: a closure's name; a leave's own reason stays the doctor's. */
export const closedJson = (t: TimeOff | null) =>
  t && { kind: kindOf(t), name: kindOf(t) === 'closure' ? t.reason : null };
