import { addDays, type clinicDateTime, isoWeekday } from '../shared/clock.ts';
import { closedBy, type TimeOffSpan } from './time-off.ts';
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
  /** yyyy-MM-dd, as the desk's printed day list shows it; null when not given. */
  patientBirthDate: string | null;
  doctor: Person;
  department: Named | null;
  room: Named | null;
  /** The calendar event's version (iCalendar SEQUENCE): each move or cancellation the patient is told of adds one. */
  sequence: number;
}

/** The clinic's date and wall-clock time (from `clinicDateTime`, in its own zone, so right across DST changes). */
export type ClinicMoment = ReturnType<typeof clinicDateTime>;

// --- times

export const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
export const timeOf = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

export const overlaps = (a: TimeSpan, b: TimeSpan) => a.startTime < b.endTime && b.startTime < a.endTime;

/** The spec's booking page splits slots at noon: a start hour below 12 is AM. */
export type Period = 'AM' | 'PM';
export const periodOf = (time: string): Period => (minutesOf(time) < 12 * 60 ? 'AM' : 'PM');

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
    const { free } = dayAvailability(pattern, bookings, timeOff, date, now);
    if (free.length > 0) days.push({ date, slots: free });
  }
  return days;
}

/** The slots of `pattern` open on `date` (no leave or closure takes them away), and those of them still free. */
export function dayAvailability(
  pattern: WeeklySlot[],
  bookings: DatedSpan[],
  timeOff: TimeOffSpan[],
  date: string,
  now: ClinicMoment,
): { open: WeeklySlot[]; free: WeeklySlot[] } {
  const booked = bookings.filter((booking) => booking.date === date);
  const open = openSlots(pattern, date, timeOff);
  return { open, free: open.filter((slot) => slotStatus(slot, date, now, booked) === 'available') };
}

// --- answers

export const weeklySlotJson = (s: WeeklySlot) => ({
  id: s.id,
  weekday: s.weekday,
  start_time: s.startTime,
  end_time: s.endTime,
  room: s.room,
});
