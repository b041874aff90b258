import type { Named, TimeSpan } from './time-span.ts';

/** A doctor's leave, or a closure of the whole clinic (a holiday): both remove the slots they cover. */
export type TimeOffKind = 'leave' | 'closure';

/** From `startsOn` to `endsOn`, whole days when the times are null, else only `startTime`–`endTime` of each day. */
export interface TimeOffSpan {
  startsOn: string;
  endsOn: string;
  startTime: string | null;
  endTime: string | null;
}

export interface NewTimeOff extends TimeOffSpan {
  /** null for a clinic closure. */
  doctorId: number | null;
  reason: string;
}

export interface TimeOff extends TimeOffSpan {
  id: number;
  /** null for a clinic closure. */
  doctor: Named | null;
  reason: string;
}

export const kindOf = (t: { doctor: Named | null }): TimeOffKind => (t.doctor ? 'leave' : 'closure');

/** Whether `t` takes away a slot at `slot`'s times on `date`. */
export function covers(t: TimeOffSpan, date: string, slot: TimeSpan): boolean {
  if (date < t.startsOn || date > t.endsOn) return false;
  return t.startTime === null || t.endTime === null || (slot.startTime < t.endTime && t.startTime < slot.endTime);
}

/** The first of `timeOff` that takes the slot away on `date`, or undefined when the slot is open. */
export const closedBy = <T extends TimeOffSpan>(timeOff: T[], date: string, slot: TimeSpan): T | undefined =>
  timeOff.find((t) => covers(t, date, slot));

/** Why a booking of a slot in `t` is refused. */
export const closedReason = (t: TimeOff) =>
  t.doctor ? "falls in the doctor's leave" : 'falls on a day the clinic is closed';

export const timeOffJson = (t: TimeOff) => ({
  id: t.id,
  kind: kindOf(t),
  doctor: t.doctor,
  starts_on: t.startsOn,
  ends_on: t.endsOn,
  start_time: t.startTime,
  end_time: t.endTime,
  reason: t.reason,
});
export type TimeOffJson = ReturnType<typeof timeOffJson>;
