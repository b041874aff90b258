import { addDays, type clinicDateTime, isoWeekday } from '../shared/clock.ts';
import type { Validator } from '../shared/validate.ts';
import { closedBy, type TimeOffJson, type TimeOffSpan } from './time-off.ts';
import type { Named, TimeSpan } from './time-span.ts';

export const APPOINTMENT_STATUSES = ['scheduled', 'checked_in', 'completed', 'no_show', 'cancelled'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];
export type SlotStatus = 'available' | 'booked' | 'past';
/** A patient's visits, split: still to come (scheduled or checked in, today or later), or past (every other). */
export const APPOINTMENT_WHEN = ['upcoming', 'past'] as const;
export type AppointmentWhen = (typeof APPOINTMENT_WHEN)[number];
/** The statuses of a visit still to come. */
export const ACTIVE_STATUSES: readonly AppointmentStatus[] = ['scheduled', 'checked_in'];

type Person = Named & { email: string };
/** A patient registered at the desk may have no e-mail (and so no sign-in and no messages). */
type PatientPerson = Named & { email: string | null };

/** One bookable slot of a doctor's weekly pattern; weekday is ISO, Monday 1 … Sunday 7. */
export interface WeeklySlot extends TimeSpan {
  id: number;
  doctorId: number;
  weekday: number;
  room: Named | null;
  retired: boolean;
}

/** A slot of a pattern about to be written (the generated form of working hours, `working-hours.ts`). */
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

export const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
export const timeOf = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

export const overlaps = (a: TimeSpan, b: TimeSpan) => a.startTime < b.endTime && b.startTime < a.endTime;

/** The spec's booking page splits slots at noon: a start hour below 12 is AM. */
export type Period = 'AM' | 'PM';
export const periodOf = (time: string): Period => (minutesOf(time) < 12 * 60 ? 'AM' : 'PM');

/** `field` as HH:mm, its problem added to `v`. */
export function readTime(v: Validator, field: string, opts: { optional?: boolean } = {}): string {
  const value = v.text(field, opts);
  if (value && !TIME.test(value)) v.fail(field, 'must be a time as HH:mm');
  return value;
}

/** start_time and end_time of one span, end after start (a placeholder once a problem is recorded in `v`). */
export function readSpan(v: Validator): TimeSpan {
  const span = { startTime: readTime(v, 'start_time'), endTime: readTime(v, 'end_time') };
  if (!v.failed('start_time') && !v.failed('end_time') && span.endTime <= span.startTime)
    v.fail('end_time', 'must be after start_time');
  return span;
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
export function agendaDates(
  date: string,
  view: AgendaView,
): { from: string; to: string; dates: string[]; step: number } {
  if (view === 'day') return { from: date, to: date, dates: [date], step: 1 };
  const monday = addDays(date, 1 - isoWeekday(date));
  return {
    from: monday,
    to: addDays(monday, 6),
    dates: Array.from({ length: 7 }, (_, day) => addDays(monday, day)),
    step: 7,
  };
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

/** The slots of the doctor's weekly `pattern` on `date` that no leave or closure of `timeOff` takes away. */
export const openSlots = (pattern: WeeklySlot[], date: string, timeOff: TimeOffSpan[]) => {
  const weekday = isoWeekday(date);
  return pattern.filter((slot) => slot.weekday === weekday && !closedBy(timeOff, date, slot));
};

/**
 * The first `count` dates from `from` to `to` on which a slot of the doctor's weekly `pattern` is open and free,
 * each with its free slots in the pattern's order.
 */
export function freeDays(
  pattern: WeeklySlot[],
  bookings: DatedSpan[],
  timeOff: TimeOffSpan[],
  range: { from: string; to: string; count: number },
  now: ClinicMoment,
): { date: string; slots: WeeklySlot[] }[] {
  const days: { date: string; slots: WeeklySlot[] }[] = [];
  for (let date = range.from; date <= range.to && days.length < range.count; date = addDays(date, 1)) {
    const booked = bookings.filter((booking) => booking.date === date);
    const slots = openSlots(pattern, date, timeOff).filter(
      (slot) => slotStatus(slot, date, now, booked) === 'available',
    );
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
  /** Each day's visits, and the doctor's leave and the clinic's closures that day (visits in them are for the desk to move). */
  days: { date: string; visits: AgendaVisitJson[]; time_off: TimeOffJson[] }[];
}
