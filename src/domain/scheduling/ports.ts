import type { AuditLog } from '../audit/audit.ts';
import type { Notifying } from '../notifications/ports.ts';
import type { NoticeSettings } from './notices.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';
import type { Appointment, AppointmentStatus, DatedSpan, SlotPlan, TimeSpan, WeeklySlot } from './scheduling.ts';

/** Gives a new doctor the clinic's default week; the catalogue's createDoctor calls it inside its transaction. */
export interface DefaultPatternWriter {
  /** The default slots, in a room of `departmentId` when that department has one. */
  createDefaultPattern(doctorId: number, departmentId: number | null): Promise<void>;
}

/** Doctors' weekly patterns. Retired slots stay, because appointments already booked point at them. */
export interface ScheduleStore extends DefaultPatternWriter {
  isActiveDoctor(doctorId: number): Promise<boolean>;
  /**
   * Locks the active doctor's row until the transaction ends, so bookings and pattern changes of one doctor
   * happen one after another; false when the doctor is unknown or inactive.
   */
  lockDoctor(doctorId: number): Promise<boolean>;
  /** The doctor's current slots, by weekday and time, only of `weekday` when given. */
  currentSlots(doctorId: number, weekday?: number): Promise<WeeklySlot[]>;
  /** Any slot, retired or not. */
  find(scheduleId: number): Promise<WeeklySlot | undefined>;
  /**
   * Makes `plan` the doctor's pattern: current slots not in it are retired at `at`, slots already there keep
   * their ids. A room that does not exist is `invalid` naming room_id.
   */
  replace(doctorId: number, plan: SlotPlan[], at: Date): Promise<void>;
}

export interface NewAppointment {
  patientId: number;
  scheduleId: number;
  date: string;
}

export interface AppointmentFilter {
  patientId?: number;
  doctorId?: number;
  status?: AppointmentStatus;
}

export interface AppointmentStore {
  /** Locks the patient's row until the transaction ends, so one patient's bookings happen one after another. */
  lockPatient(patientId: number): Promise<void>;
  /** The times of the doctor's or the patient's appointments on `date` that are not cancelled. */
  bookedTimes(owner: { doctorId: number } | { patientId: number }, date: string): Promise<TimeSpan[]>;
  /** The dates and times of the doctor's appointments from `from` to `to` that are not cancelled. */
  doctorBookings(doctorId: number, from: string, to: string): Promise<DatedSpan[]>;
  /** The patient's scheduled appointments on `date` with `doctorId`, and from `today` on with anyone. */
  patientBookings(patientId: number, doctorId: number, date: string, today: string): Promise<{ withDoctorThatDay: number; upcoming: number }>;
  /**
   * Books the slot on `date`, copying its times, room and the doctor's department; the slot index makes a
   * slot someone else holds a conflict `slot_taken`. Answers the new appointment as `find` shows it.
   */
  insert(appointment: NewAppointment): Promise<Appointment>;
  find(id: number): Promise<Appointment | undefined>;
  /** The appointment with its row locked until the transaction ends. */
  lock(id: number): Promise<Appointment | undefined>;
  cancel(id: number, at: Date): Promise<void>;
  /** Upcoming first (from `today`, soonest first), then past ones, latest first; `q` searches names and emails. */
  list(filter: AppointmentFilter, req: PageRequest, today: string): Promise<Page<Appointment>>;
}

export interface SchedulingTxDeps extends Notifying {
  schedules: ScheduleStore;
  appointments: AppointmentStore;
  audit: AuditLog;
}

/** How much one patient may book for themselves, so nobody holds a doctor's whole week (staff are not capped). */
export interface BookingLimits {
  perDoctorPerDay: number;
  upcoming: number;
}

export const DEFAULT_BOOKING_LIMITS: BookingLimits = { perDoctorPerDay: 1, upcoming: 10 };

export interface SchedulingDeps extends SchedulingTxDeps, NoticeSettings {
  clock: Clock;
  bookingLimits: BookingLimits;
  /** The clinic's IANA zone: "today", "past" and AM/PM are its wall clock. */
  timeZone: string;
  /** All or nothing: `fn` gets the same ports bound to one transaction. */
  transaction<T>(fn: (tx: SchedulingTxDeps) => Promise<T>): Promise<T>;
}
