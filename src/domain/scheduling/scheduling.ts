import { addDays, clinicDateTime, isoWeekday } from '../shared/clock.ts';
import { invalid, type FieldErrors } from '../shared/errors.ts';
import { Validator, asRecord } from '../shared/validate.ts';

export const APPOINTMENT_STATUSES = ['scheduled', 'checked_in', 'completed', 'no_show', 'cancelled'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];
export type SlotStatus = 'available' | 'booked' | 'past';

type Named = { id: number; name: string };
type Person = Named & { email: string };
/** A patient registered at the desk may have no e-mail (and so no sign-in and no messages). */
type PatientPerson = Named & { email: string | null };

/** Wall-clock times of the clinic, 'HH:mm' (they compare correctly as strings). */
export interface TimeSpan {
  startTime: string;
  endTime: string;
}

/** One bookable slot of a doctor's weekly pattern; weekday is ISO, Monday 1 … Sunday 7. */
export interface WeeklySlot extends TimeSpan {
  id: number;
  doctorId: number;
  weekday: number;
  room: Named | null;
  retired: boolean;
}

/** A slot of a pattern about to be written. */
export interface SlotPlan extends TimeSpan {
  weekday: number;
  roomId: number | null;
}

export interface Appointment extends TimeSpan {
  id: number;
  date: string;
  status: AppointmentStatus;
  patient: PatientPerson;
  doctor: Person;
  department: Named | null;
  room: Named | null;
  /** The calendar event's version (iCalendar SEQUENCE): each move or cancellation the patient is told of adds one. */
  sequence: number;
}

/** The clinic's date and wall-clock time (from `clinicDateTime`, in its own zone, so right across DST changes). */
export type ClinicMoment = ReturnType<typeof clinicDateTime>;

// --- times

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const MIN_SLOT_MINUTES = 5;
const MAX_SLOT_MINUTES = 480;
const MAX_SLOTS = 2016; // every 5 minutes, all week

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const timeOf = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

export const overlaps = (a: TimeSpan, b: TimeSpan) => a.startTime < b.endTime && b.startTime < a.endTime;

/** The spec's booking page splits slots at noon: a start hour below 12 is AM. */
export type Period = 'AM' | 'PM';
export const periodOf = (time: string): Period => (minutesOf(time) < 12 * 60 ? 'AM' : 'PM');

// --- weekly patterns

export interface WorkingHours {
  days: number[];
  startTime: string;
  endTime: string;
  slotMinutes: number;
  roomId: number | null;
}

/** Back-to-back slots of `slotMinutes` from start to end on each day; a remainder too short for a slot is left free. */
export function generateSlots(hours: WorkingHours): SlotPlan[] {
  const [start, end] = [minutesOf(hours.startTime), minutesOf(hours.endTime)];
  return hours.days.flatMap((weekday) =>
    Array.from({ length: Math.floor((end - start) / hours.slotMinutes) }, (_, i) => {
      const from = start + i * hours.slotMinutes;
      return { weekday, startTime: timeOf(from), endTime: timeOf(from + hours.slotMinutes), roomId: hours.roomId };
    }),
  );
}

/** A new doctor's week until an admin sets another: Monday to Friday, 09:00–17:00, 30-minute slots. */
const DEFAULT_WORKING_HOURS: Omit<WorkingHours, 'roomId'> = { days: [1, 2, 3, 4, 5], startTime: '09:00', endTime: '17:00', slotMinutes: 30 };

export const defaultPattern = (): SlotPlan[] => generateSlots({ ...DEFAULT_WORKING_HOURS, roomId: null });

/** The first two slots of a pattern that overlap on the same weekday, or undefined. */
export function findOverlap(plan: SlotPlan[]): [SlotPlan, SlotPlan] | undefined {
  const sorted = [...plan].sort((a, b) => a.weekday - b.weekday || a.startTime.localeCompare(b.startTime));
  for (const [i, after] of sorted.entries()) {
    const before = sorted[i - 1];
    if (before && before.weekday === after.weekday && overlaps(before, after)) return [before, after];
  }
  return undefined;
}

const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const describeSlot = (s: SlotPlan) => `${WEEKDAY_NAMES[s.weekday - 1]} ${s.startTime}–${s.endTime}`;

/**
 * A whole weekly pattern from a request: either explicit `slots: [{weekday, start_time, end_time, room_id?}]`
 * or working hours `{days, start_time, end_time, slot_minutes, room_id?}`. Overlapping slots are refused.
 */
export function readPattern(body: unknown): SlotPlan[] {
  const input = asRecord(body);
  const plan = input.slots !== undefined ? readExplicitSlots(input.slots) : readWorkingHours(input);
  const clash = findOverlap(plan);
  if (clash) throw invalid({ slots: [`${describeSlot(clash[1])} overlaps ${describeSlot(clash[0])}`] });
  return plan;
}

function readTime(v: Validator, field: string): string {
  const value = v.text(field);
  if (value && !TIME.test(value)) v.fail(field, 'must be a time as HH:mm');
  return value;
}

/** start_time and end_time of one span, end after start (a placeholder once a problem is recorded in `v`). */
function readSpan(v: Validator): TimeSpan {
  const span = { startTime: readTime(v, 'start_time'), endTime: readTime(v, 'end_time') };
  if (!v.failed('start_time') && !v.failed('end_time') && span.endTime <= span.startTime) v.fail('end_time', 'must be after start_time');
  return span;
}

const WEEKDAY_RULE = 'must be a weekday from 1 (Monday) to 7 (Sunday)';

function isWeekday(raw: unknown): raw is number {
  return typeof raw === 'number' && Number.isInteger(raw) && raw >= 1 && raw <= 7;
}

/** A weekday given as a number or a one-digit string; 0, an impossible day, when it is neither. */
function toWeekday(raw: unknown): number {
  const day = typeof raw === 'string' && /^\d$/.test(raw) ? Number(raw) : raw;
  return isWeekday(day) ? day : 0;
}

function readWorkingHours(input: Record<string, unknown>): SlotPlan[] {
  const v = new Validator(input);
  const days = Array.isArray(input.days) ? input.days.map(toWeekday) : [];
  if (days.length === 0) v.fail('days', 'must list at least one weekday');
  else if (!days.every(isWeekday)) v.fail('days', `each ${WEEKDAY_RULE}`);
  else if (new Set(days).size !== days.length) v.fail('days', 'must not repeat a weekday');
  const span = readSpan(v);
  const slotMinutes = v.id('slot_minutes');
  const roomId = v.id('room_id', { optional: true }) ?? null;
  if (!v.failed('slot_minutes')) checkSlotLength(v, slotMinutes, span);
  v.done();
  return generateSlots({ days, ...span, slotMinutes, roomId });
}

function checkSlotLength(v: Validator, slotMinutes: number, span: TimeSpan): void {
  if (slotMinutes < MIN_SLOT_MINUTES || slotMinutes > MAX_SLOT_MINUTES) {
    v.fail('slot_minutes', `must be between ${MIN_SLOT_MINUTES} and ${MAX_SLOT_MINUTES}`);
  } else if (!v.failed('start_time') && !v.failed('end_time') && slotMinutes > minutesOf(span.endTime) - minutesOf(span.startTime)) {
    v.fail('slot_minutes', 'must fit between start_time and end_time');
  }
}

function readExplicitSlots(raw: unknown): SlotPlan[] {
  if (!Array.isArray(raw)) throw invalid({ slots: ['must be a list of slots'] });
  if (raw.length > MAX_SLOTS) throw invalid({ slots: [`must have at most ${MAX_SLOTS} slots`] });
  const errors: FieldErrors = {};
  const plan = raw.map((item, i) => {
    const input = asRecord(item);
    const v = new Validator(input);
    const weekday = toWeekday(input.weekday);
    if (!isWeekday(weekday)) v.fail('weekday', WEEKDAY_RULE);
    const span = readSpan(v);
    const roomId = v.id('room_id', { optional: true }) ?? null;
    for (const [field, messages] of Object.entries(v.errors)) errors[`slots[${i}].${field}`] = messages;
    return { weekday, ...span, roomId };
  });
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return plan;
}

// --- booking rules

export const MAX_DAYS_AHEAD = 60;

/** A slot someone else holds: the booking's own check and the slot's unique index answer alike. */
export const SLOT_TAKEN = { code: 'slot_taken', field: 'schedule_id', message: 'This slot is no longer available' };

/** Appointments are made from today up to 60 days ahead; the reason a date is outside that, or undefined. */
export function dateOutOfRange(date: string, today: string): string | undefined {
  if (date < today) return 'must not be in the past';
  if (date > addDays(today, MAX_DAYS_AHEAD)) return `must be at most ${MAX_DAYS_AHEAD} days ahead`;
  return undefined;
}

/** A doctor's agenda shows one day, or the Monday-to-Sunday week around it. */
export const AGENDA_VIEWS = ['day', 'week'] as const;
export type AgendaView = (typeof AGENDA_VIEWS)[number];

/** The dates of the agenda for `date` in `view`, first to last. */
export function agendaDates(date: string, view: AgendaView): { from: string; to: string; dates: string[]; step: number } {
  if (view === 'day') return { from: date, to: date, dates: [date], step: 1 };
  const monday = addDays(date, 1 - isoWeekday(date));
  return { from: monday, to: addDays(monday, 6), dates: Array.from({ length: 7 }, (_, day) => addDays(monday, day)), step: 7 };
}

/** A slot has started once its start time has come on its date, in clinic time. */
export const hasStarted = (date: string, startTime: string, now: ClinicMoment) =>
  date < now.date || (date === now.date && startTime <= now.time);

/**
 * A slot on `date` is booked when any appointment of the doctor overlaps it in time, not only one holding the
 * same start: after a pattern change an old booking may cover part of a new, differently aligned slot.
 */
export function slotStatus(slot: TimeSpan, date: string, now: ClinicMoment, bookings: TimeSpan[]): SlotStatus {
  if (hasStarted(date, slot.startTime, now)) return 'past';
  return bookings.some((booking) => overlaps(slot, booking)) ? 'booked' : 'available';
}

/** A booking's times on its date. */
export interface DatedSpan extends TimeSpan {
  date: string;
}

/** How many days with a free slot the booking page offers when the chosen day has none. */
export const NEXT_FREE_DAYS = 3;

/**
 * The first `count` dates from `from` to `to` on which a slot of the doctor's weekly `pattern` is free, each with
 * its free slots in the pattern's order.
 */
export function freeDays(
  pattern: WeeklySlot[],
  bookings: DatedSpan[],
  range: { from: string; to: string; count: number },
  now: ClinicMoment,
): { date: string; slots: WeeklySlot[] }[] {
  const days: { date: string; slots: WeeklySlot[] }[] = [];
  for (let date = range.from; date <= range.to && days.length < range.count; date = addDays(date, 1)) {
    const booked = bookings.filter((booking) => booking.date === date);
    const weekday = isoWeekday(date);
    const slots = pattern.filter((slot) => slot.weekday === weekday && slotStatus(slot, date, now, booked) === 'available');
    if (slots.length > 0) days.push({ date, slots });
  }
  return days;
}

// --- answers

export const weeklySlotJson = (s: WeeklySlot) => ({
  id: s.id,
  weekday: s.weekday,
  start_time: s.startTime,
  end_time: s.endTime,
  room: s.room,
});
export type WeeklySlotJson = ReturnType<typeof weeklySlotJson>;

/** The appointment of docs/api.md, nested and with the flat names the tables show; every list answers this. */
export function appointmentJson(a: Appointment) {
  return {
    id: a.id,
    date: a.date,
    start_time: a.startTime,
    end_time: a.endTime,
    status: a.status,
    patient: a.patient,
    doctor: a.doctor,
    department: a.department,
    room: a.room,
    patient_name: a.patient.name,
    patient_email: a.patient.email,
    doctor_name: a.doctor.name,
    doctor_email: a.doctor.email,
    department_name: a.department?.name ?? null,
    room_name: a.room?.name ?? null,
  };
}
export type AppointmentJson = ReturnType<typeof appointmentJson>;
/** An appointment in the patient's and the doctor's lists, which also say whether it has begun by the clinic's clock. */
export type ListedAppointmentJson = AppointmentJson & { has_started: boolean };
export type AgendaVisitJson = ListedAppointmentJson & { can_record: boolean };

/** A doctor's agenda of a day or a week, with the dates the previous and the next one start on. */
export interface AgendaJson {
  view: AgendaView;
  date: string;
  today: string;
  previous: string;
  next: string;
  days: { date: string; visits: AgendaVisitJson[] }[];
}
