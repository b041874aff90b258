import { addDays, clinicDateTime, clinicInstant } from '../shared/clock.ts';
import { conflict } from '../shared/errors.ts';
import { type Frequency, STANDARD_TIMES } from './prescriptions.ts';

const HOUR = 3_600_000;

/** An inpatient order runs at most this long; a longer course is ordered again, so its doses are always generated. */
export const MAX_ORDER_DAYS = 30;

/**
 * The scheduled doses of an inpatient order from `start` until before `end` (docs/design.md §8 "Time"):
 * - every N hours is elapsed time: the first dose at `start`, then every N × 3600 s, whatever the wall clock does
 *   (across the spring-forward night two doses are still N hours apart, though the clock says N + 1);
 * - so many times a day and at given times are wall-clock times in the clinic's zone, on each of its dates: a time
 *   the spring-forward night skips is given an hour later (clinicInstant), one the fall-back night repeats once;
 * - as needed has no schedule: each dose is recorded when given (`checkAsNeeded`).
 */
export function scheduledDoses(frequency: Frequency, start: Date, end: Date, timeZone: string): Date[] {
  if (end <= start) return [];
  if (frequency.kind === 'as_needed') return [];
  if (frequency.kind === 'every_hours') {
    const doses: Date[] = [];
    for (let at = start.getTime(); at < end.getTime(); at += frequency.hours * HOUR) doses.push(new Date(at));
    return doses;
  }
  const times = frequency.kind === 'at_times' ? frequency.times : (STANDARD_TIMES[frequency.times] ?? []);
  const doses = new Map<number, Date>();
  const last = clinicDateTime(end, timeZone).date;
  for (let date = clinicDateTime(start, timeZone).date; date <= last; date = addDays(date, 1)) {
    for (const time of times) {
      const at = clinicInstant(date, time, timeZone);
      if (at >= start && at < end) doses.set(at.getTime(), at);
    }
  }
  return [...doses.values()].sort((a, b) => a.getTime() - b.getTime());
}

/**
 * The as-needed rules, checked when a dose is given at `at` against the doses already given: one inside the
 * minimum interval since the last is a 409 `min_interval`, one past the maximum in the 24 hours before it a 409
 * `daily_maximum`; each names its rule.
 */
export function checkAsNeeded(
  rule: { minIntervalHours: number; maxPerDay: number },
  givenAt: readonly Date[],
  at: Date,
): void {
  // A dose charted late may fall between two others: the interval holds to the nearest on either side.
  const nearest = givenAt.reduce<Date | undefined>(
    (best, g) => (!best || Math.abs(g.getTime() - at.getTime()) < Math.abs(best.getTime() - at.getTime()) ? g : best),
    undefined,
  );
  if (nearest && Math.abs(at.getTime() - nearest.getTime()) < rule.minIntervalHours * HOUR) {
    throw conflict(
      'min_interval',
      `At least ${rule.minIntervalHours} h must pass between doses; one was given at ${nearest.toISOString()}`,
    );
  }
  const before = givenAt.filter((g) => g.getTime() <= at.getTime());
  const inDay = before.filter((g) => at.getTime() - g.getTime() < 24 * HOUR).length;
  if (inDay >= rule.maxPerDay) {
    throw conflict(
      'daily_maximum',
      `At most ${rule.maxPerDay} doses may be given in 24 hours; ${inDay} were given in the 24 hours before this one`,
    );
  }
}
