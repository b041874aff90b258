import type { Actor } from '../shared/actor.ts';
import { addDays } from '../shared/clock.ts';
import { notFound } from '../shared/errors.ts';
import { readFields } from '../shared/read-fields.ts';
import { Validator, asRecord, pathId, type RawId } from '../shared/validate.ts';
import { doctorWeek } from './doctor-week.ts';
import { closedJson, monthDays, monthOf, monthSpan, nextMonth, previousMonth } from './month-view.ts';
import type { SchedulingDeps } from './ports.ts';
import { MAX_DAYS_AHEAD } from './scheduling.ts';
import { MonthAvailabilityQuery, type MonthAvailabilityJson } from './scheduling-shapes.ts';
import { nowInClinic } from './use-case-input.ts';

/**
 * A doctor's month (the month of `month`, default this one) for the booking page's month view: each day open with
 * its free slots, full, closed by a closure or the doctor's leave, off, or outside the booking window.
 */
export async function availableMonth(
  deps: SchedulingDeps,
  rawDoctorId: RawId,
  query: Record<string, unknown>,
  actor: Actor,
): Promise<MonthAvailabilityJson> {
  const doctorId = pathId(rawDoctorId, 'Doctor');
  const now = nowInClinic(deps);
  const window = { from: now.date, to: addDays(now.date, MAX_DAYS_AHEAD) };
  const v = new Validator(asRecord(query));
  const month = monthOf(readFields(v, MonthAvailabilityQuery).month ?? now.date);
  if (month < monthOf(window.from) || month > monthOf(window.to))
    v.fail('month', `must be from this month to the month ${MAX_DAYS_AHEAD} days ahead`);
  v.done();
  if (!(await deps.schedules.isActiveDoctor(doctorId))) throw notFound('Doctor');
  const { first, last } = monthSpan(month);
  // Dates compare as text: the later of the starts, the earlier of the ends.
  const range = { from: [first, window.from].sort()[1] ?? first, to: [last, window.to].sort()[0] ?? last };
  const week = await doctorWeek(deps, doctorId, range, actor.patientId);
  const [before, after] = [previousMonth(month), nextMonth(month)];
  return {
    doctor_id: doctorId,
    month,
    today: now.date,
    last_bookable: window.to,
    previous: before >= monthOf(window.from) ? `${before}-01` : null,
    next: after <= monthOf(window.to) ? `${after}-01` : null,
    days: monthDays(month, window, week, now).map((day) => ({
      date: day.date,
      state: day.state,
      free: day.free,
      closed: closedJson(day.closedBy),
    })),
  };
}
