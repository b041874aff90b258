import { invalid, type FieldErrors } from '../shared/errors.ts';
import { readFields } from '../shared/read-fields.ts';
import { Validator, asRecord } from '../shared/validate.ts';
import { minutesOf, overlaps, timeOf, type SlotPlan } from './scheduling.ts';
import {
  DayHoursRequest,
  HoursRangeRequest,
  MAX_RANGES,
  MAX_SLOTS,
  SlotRequest,
  WEEKDAY_RULE,
  type HoursRangeJson,
} from './scheduling-shapes.ts';
import type { Named, TimeSpan } from './time-span.ts';

/**
 * One range of a doctor's working hours on a weekday (ISO, Monday 1), cut into back-to-back slots of
 * `slotMinutes`; a day has any number of ranges, the gaps between them (a lunch break) have no slots.
 */
export interface HoursRange extends TimeSpan {
  weekday: number;
  slotMinutes: number;
  roomId: number | null;
}

/** A saved range, its room named. */
export interface SavedRange extends TimeSpan {
  weekday: number;
  slotMinutes: number;
  room: Named | null;
}

const byDayAndTime = <T extends { weekday: number; startTime: string }>(a: T, b: T) =>
  a.weekday - b.weekday || a.startTime.localeCompare(b.startTime);

/** The slots of the ranges, in order; a remainder of a range too short for a slot is left free. */
export function slotsOf(ranges: HoursRange[]): SlotPlan[] {
  return [...ranges].sort(byDayAndTime).flatMap((range) => {
    const start = minutesOf(range.startTime);
    const count = Math.floor((minutesOf(range.endTime) - start) / range.slotMinutes);
    return Array.from({ length: count }, (_, i) => {
      const from = start + i * range.slotMinutes;
      return {
        weekday: range.weekday,
        startTime: timeOf(from),
        endTime: timeOf(from + range.slotMinutes),
        roomId: range.roomId,
      };
    });
  });
}

const lengthOf = (span: TimeSpan) => minutesOf(span.endTime) - minutesOf(span.startTime);

/** Explicit slots as ranges: back-to-back slots of one length in one room join into one range. */
export function rangesOf(plan: SlotPlan[]): HoursRange[] {
  const ranges: HoursRange[] = [];
  for (const slot of [...plan].sort(byDayAndTime)) {
    const last = ranges.at(-1);
    const continues =
      last &&
      last.weekday === slot.weekday &&
      last.endTime === slot.startTime &&
      last.roomId === slot.roomId &&
      last.slotMinutes === lengthOf(slot);
    if (last && continues) last.endTime = slot.endTime;
    else
      ranges.push({
        weekday: slot.weekday,
        startTime: slot.startTime,
        endTime: slot.endTime,
        slotMinutes: lengthOf(slot),
        roomId: slot.roomId,
      });
  }
  return ranges;
}

/** A new doctor's week until an admin sets another: Monday to Friday, 09:00–17:00, 30-minute slots. */
export const defaultHours = (roomId: number | null = null): HoursRange[] =>
  [1, 2, 3, 4, 5].map((weekday) => ({ weekday, startTime: '09:00', endTime: '17:00', slotMinutes: 30, roomId }));

/** Whether `wanted` is exactly the saved week, so saving it would change nothing. */
export function sameHours(wanted: HoursRange[], saved: SavedRange[]): boolean {
  const key = (r: HoursRange) => `${r.weekday} ${r.startTime} ${r.endTime} ${r.slotMinutes} ${r.roomId ?? ''}`;
  const a = wanted.map(key).sort();
  const b = saved.map((r) => key({ ...r, roomId: r.room?.id ?? null })).sort();
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const describe = (s: { weekday: number } & TimeSpan) => `${WEEKDAY_NAMES[s.weekday - 1]} ${s.startTime}–${s.endTime}`;

function refuseOverlap<T extends { weekday: number } & TimeSpan>(items: T[], field: string): void {
  const sorted = [...items].sort(byDayAndTime);
  for (const [i, after] of sorted.entries()) {
    const before = sorted[i - 1];
    if (before && before.weekday === after.weekday && overlaps(before, after))
      throw invalid({ [field]: [`${describe(after)} overlaps ${describe(before)}`] });
  }
}

/**
 * A doctor's whole week from a request, in one of three forms: `hours: [{weekday, start_time, end_time,
 * slot_minutes, room_id?}]` (any number of ranges a day); the same hours on several `days`; or explicit `slots`,
 * which become ranges. Overlapping ranges or slots are refused naming the list.
 */
export function readHours(body: unknown): HoursRange[] {
  const input = asRecord(body);
  if (input.hours !== undefined) return checked(readList(input.hours, 'hours', MAX_RANGES, readRange), 'hours');
  if (input.slots !== undefined) return rangesOf(checked(readList(input.slots, 'slots', MAX_SLOTS, readSlot), 'slots'));
  return readDays(input);
}

function checked<T extends { weekday: number } & TimeSpan>(items: T[], field: string): T[] {
  refuseOverlap(items, field);
  return items;
}

function readList<T>(raw: unknown, field: string, max: number, readItem: (v: Validator) => T): T[] {
  if (!Array.isArray(raw)) throw invalid({ [field]: ['must be a list'] });
  if (raw.length > max) throw invalid({ [field]: [`must have at most ${max} items`] });
  const errors: FieldErrors = {};
  const items = raw.map((item, i) => {
    const v = new Validator(asRecord(item));
    const read = readItem(v);
    for (const [name, messages] of Object.entries(v.errors)) errors[`${field}[${i}].${name}`] = messages;
    return read;
  });
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return items;
}

function isWeekday(raw: unknown): raw is number {
  return typeof raw === 'number' && Number.isInteger(raw) && raw >= 1 && raw <= 7;
}

/** A weekday given as a number or a one-digit string; 0, an impossible day, when it is neither. */
function toWeekday(raw: unknown): number {
  const day = typeof raw === 'string' && /^\d$/.test(raw) ? Number(raw) : raw;
  return isWeekday(day) ? day : 0;
}

/** A range's times as read: it ends after it starts. */
function spanOf(v: Validator, read: { start_time: string; end_time: string }): TimeSpan {
  const span = { startTime: read.start_time, endTime: read.end_time };
  if (!v.failed('start_time') && !v.failed('end_time') && span.endTime <= span.startTime)
    v.fail('end_time', 'must be after start_time');
  return span;
}

/** The hours of a day as read (DayHoursRequest): a span a slot fits in. */
function dayHoursOf(
  v: Validator,
  read: { start_time: string; end_time: string; slot_minutes: number; room_id?: number },
): Omit<HoursRange, 'weekday'> {
  const span = spanOf(v, read);
  const allRead = !['start_time', 'end_time', 'slot_minutes'].some((field) => v.failed(field));
  if (allRead && read.slot_minutes > lengthOf(span)) v.fail('slot_minutes', 'must fit between start_time and end_time');
  return { ...span, slotMinutes: read.slot_minutes, roomId: read.room_id ?? null };
}

function readRange(v: Validator): HoursRange {
  const read = readFields(v, HoursRangeRequest);
  return { weekday: read.weekday, ...dayHoursOf(v, read) };
}

function readSlot(v: Validator): SlotPlan {
  const read = readFields(v, SlotRequest);
  return { weekday: read.weekday, ...spanOf(v, read), roomId: read.room_id ?? null };
}

/** The `days` form: its list of weekdays is read by its own rules, the day's hours by DayHoursRequest. */
function readDays(input: Record<string, unknown>): HoursRange[] {
  const v = new Validator(input);
  const days = Array.isArray(input.days) ? input.days.map(toWeekday) : [];
  if (days.length === 0) v.fail('days', 'must list at least one weekday');
  else if (!days.every(isWeekday)) v.fail('days', `each ${WEEKDAY_RULE}`);
  else if (new Set(days).size !== days.length) v.fail('days', 'must not repeat a weekday');
  const hours = dayHoursOf(v, readFields(v, DayHoursRequest));
  v.done();
  return days.map((weekday) => ({ weekday, ...hours }));
}

export const hoursRangeJson = (r: SavedRange): HoursRangeJson => ({
  weekday: r.weekday,
  start_time: r.startTime,
  end_time: r.endTime,
  slot_minutes: r.slotMinutes,
  room: r.room,
});
