import type { AuditLog } from '../audit/audit.ts';
import type { Notifying } from '../notifications/ports.ts';
import type { NoticeSettings } from './notices.ts';
import type { Clock } from '../shared/clock.ts';
import type { Page, PageRequest } from '../shared/pagination.ts';
import type { Appointment, AppointmentStatus, AppointmentWhen, DatedSpan, WeeklySlot } from './scheduling.ts';
import type { TimeSpan } from './time-span.ts';
import type { NewTimeOff, TimeOff } from './time-off.ts';
import type { FreedSlot, Hold, NewOffer, NewWaitlistEntry, WaitlistEntry, WaitlistOffer } from './waitlist.ts';
import type { HoursRange, SavedRange } from './working-hours.ts';

/** Gives a new doctor the clinic's default week; the catalogue's createDoctor calls it inside its transaction. */
export interface DefaultPatternWriter {
  /** The default slots, in a room of `departmentId` when that department has one. */
  createDefaultPattern(doctorId: number, departmentId: number | null): Promise<void>;
}

/**
 * Doctors' working hours and the weekly slots generated from them, which bookings point at. Retired slots stay,
 * because appointments already booked point at them.
 */
export interface ScheduleStore extends DefaultPatternWriter {
  isActiveDoctor(doctorId: number): Promise<boolean>;
  /**
   * Locks the active doctor's row until the transaction ends, so bookings and pattern changes of one doctor
   * happen one after another; false when the doctor is unknown or inactive.
   */
  lockDoctor(doctorId: number): Promise<boolean>;
  /** The doctor's current slots, by weekday and time, only of `weekday` when given. */
  currentSlots(doctorId: number, weekday?: number): Promise<WeeklySlot[]>;
  /** The active doctors of the department, by name; undefined when there is no such department. */
  departmentDoctors(departmentId: number): Promise<{ id: number; name: string }[] | undefined>;
  /** Any slot, retired or not. */
  find(scheduleId: number): Promise<WeeklySlot | undefined>;
  /** The doctor's working hours, by weekday and time. */
  hours(doctorId: number): Promise<SavedRange[]>;
  /**
   * Makes `hours` the doctor's working hours and their slots the doctor's pattern: current slots not in it are
   * retired at `at`, slots already there keep their ids. A room that does not exist is `invalid` naming room_id.
   */
  replace(doctorId: number, hours: HoursRange[], at: Date): Promise<void>;
}

/** A visit still scheduled inside a leave or a closure: it stays booked until the desk moves or cancels it. */
export interface VisitToMove {
  appointment: Appointment;
  timeOff: TimeOff;
}

/** Doctors' leave and the clinic's closures. */
export interface TimeOffStore {
  /** The doctor's leave and the clinic's closures that touch a day from `from` to `to`, by start. */
  covering(doctorId: number, from: string, to: string): Promise<TimeOff[]>;
  add(timeOff: NewTimeOff): Promise<TimeOff>;
  /** Leave and closures ending on `from` or later, soonest first: one doctor's leave and the closures, or all. */
  list(filter: { doctorId?: number; from: string }, req: PageRequest): Promise<Page<TimeOff>>;
  /** Removes it, answering what it was; undefined when there is no such time off. */
  remove(id: number): Promise<TimeOff | undefined>;
  /** Visits still scheduled from `today` on inside time off (only `timeOffId`'s when given), by date and time. */
  visitsToMove(filter: { today: string; timeOffId?: number }, req: PageRequest): Promise<Page<VisitToMove>>;
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
  /** Only this day's appointments. */
  date?: string;
  /** Leaves cancelled appointments out, unless `status` asks for them. */
  hideCancelled?: boolean;
  /** Only visits still to come (scheduled or checked in, today or later), or only the others. */
  when?: AppointmentWhen;
}

/** How many appointments are in each status. */
export type StatusCounts = Record<AppointmentStatus, number>;

/** Where a booking goes: a current slot of its doctor on a date. */
export interface SlotChoice {
  scheduleId: number;
  date: string;
}

export interface AppointmentStore {
  /**
   * Locks the patient's row until the transaction ends, so one patient's bookings happen one after another, and
   * says whether they have an e-mail (a walk-in may not); undefined when there is no such patient.
   */
  lockPatient(patientId: number): Promise<{ hasEmail: boolean } | undefined>;
  /** The times of the doctor's or the patient's appointments on `date` that are not cancelled, but for `except`. */
  bookedTimes(owner: { doctorId: number } | { patientId: number }, date: string, except?: number): Promise<TimeSpan[]>;
  /** The dates and times of the doctor's appointments from `from` to `to` that are not cancelled. */
  doctorBookings(doctorId: number, from: string, to: string): Promise<DatedSpan[]>;
  /** The patient's scheduled appointments on `date` with `doctorId`, and from `today` on with anyone, but for `except`. */
  patientBookings(
    patientId: number,
    doctorId: number,
    date: string,
    today: string,
    except?: number,
  ): Promise<{ withDoctorThatDay: number; upcoming: number }>;
  /**
   * Books the slot on `date`, copying its times, room and the doctor's department; the slot index makes a
   * slot someone else holds a conflict `slot_taken`. Answers the new appointment as `find` shows it.
   */
  insert(appointment: NewAppointment): Promise<Appointment>;
  find(id: number): Promise<Appointment | undefined>;
  /** The appointment with its row locked until the transaction ends. */
  lock(id: number): Promise<Appointment | undefined>;
  /**
   * Sets the status the lifecycle allows (`transition`); checking in also notes its time. Answers the
   * appointment's sequence after the change (a cancellation adds one).
   */
  setStatus(id: number, status: AppointmentStatus, at: Date): Promise<number>;
  /**
   * Moves the appointment to another slot, with that slot's doctor, times, room and department; the slot index
   * makes a slot someone else holds a conflict `slot_taken`. Answers the moved appointment, its sequence one more.
   */
  move(id: number, to: SlotChoice, at: Date): Promise<Appointment>;
  /**
   * Upcoming first (from `today`, soonest first), then past ones, latest first; one date's in the order of the
   * day. `q` searches names and emails.
   */
  list(filter: AppointmentFilter, req: PageRequest, today: string): Promise<Page<Appointment>>;
  /** How many appointments of `date` (only the doctor's, when given) are in each status. */
  dayCounts(date: string, doctorId?: number): Promise<StatusCounts>;
  /** The doctor's appointments from `from` to `to` that are not cancelled, in the order of the day. */
  agenda(doctorId: number, from: string, to: string): Promise<Appointment[]>;
}

/** How much one patient may book for themselves, so nobody holds a doctor's whole week (staff are not capped). */
export interface BookingLimits {
  perDoctorPerDay: number;
  upcoming: number;
}

export const DEFAULT_BOOKING_LIMITS: BookingLimits = { perDoctorPerDay: 1, upcoming: 10 };

/** Waitlist entries and the offers that hold a freed slot for one of them. */
export interface WaitlistStore {
  /** Whether the patient already waits for the doctor on a day from `from` to `to`. */
  overlapping(patientId: number, doctorId: number, from: string, to: string): Promise<boolean>;
  join(entry: NewWaitlistEntry): Promise<number>;
  /** The patient's waiting entries that end on `today` or later, each with its open offer, in the order joined; `q` searches the doctor's name. */
  entriesOf(patientId: number, today: string, req: PageRequest): Promise<Page<WaitlistEntry>>;
  entry(id: number): Promise<WaitlistEntry | undefined>;
  /** The waiting entry, its row locked until the transaction ends. */
  lockEntry(id: number): Promise<{ id: number; patientId: number } | undefined>;
  closeEntry(id: number, status: 'booked' | 'left', at: Date): Promise<void>;
  /** The open offers of the doctor's slots from `from` to `to`: slots nobody but the offered patient may book. */
  holds(doctorId: number, from: string, to: string): Promise<Hold[]>;
  /**
   * The first waiting entry in line (by joining time) whose range covers the slot's date, which holds no other
   * offer, was not offered this slot before, and whose patient has no visit at that time.
   */
  nextInLine(slot: FreedSlot & TimeSpan): Promise<number | undefined>;
  /** Opens the offer, without a token (its e-mail's sender mints one); undefined when the slot already has an open offer. */
  offer(offer: NewOffer): Promise<{ offer: WaitlistOffer } | undefined>;
  /** The offer a link's token opens, its row locked until the transaction ends when `lock` is set. */
  findOffer(token: string, opts?: { lock: boolean }): Promise<WaitlistOffer | undefined>;
  /** The open offer of an entry, its row locked. */
  lockOpenOfferOf(entryId: number): Promise<WaitlistOffer | undefined>;
  closeOffer(
    id: number,
    status: 'accepted' | 'declined' | 'expired' | 'withdrawn',
    at: Date,
    appointmentId?: number,
  ): Promise<void>;
  /**
   * Closes up to `limit` open offers whose hold ended by `now` as expired, in one statement, and answers them in
   * the order they ran out; offers another instance holds locked are skipped.
   */
  expireDue(now: Date, limit: number): Promise<WaitlistOffer[]>;
}

/** The slots a booking or an offer is checked against. */
export type SlotLookup = Pick<ScheduleStore, 'isActiveDoctor' | 'lockDoctor' | 'currentSlots' | 'find'>;

/** What taking a slot checks and writes of appointments. */
export type SlotBookings = Pick<AppointmentStore, 'lockPatient' | 'bookedTimes' | 'patientBookings' | 'insert'>;

/** What scheduling needs of the waitlist: holds a booking respects, and offers a freed slot opens or a booking fulfils. */
export type OfferPorts = Pick<WaitlistStore, 'holds' | 'nextInLine' | 'offer' | 'closeOffer' | 'closeEntry'>;

/** A slot on a date, for a patient: what a booking or a move asks `PlacementReads.facts` about. */
export interface PlacementAsk {
  doctorId: number;
  scheduleId: number;
  date: string;
  patientId: number;
  /** The clinic's today: the patient's upcoming bookings count from it. */
  today: string;
  /** The appointment being moved, left out of the bookings. */
  except?: number;
}

/** Everything a booking checks, as the stores it comes from would answer each part of it. */
export interface PlacementFacts {
  /** ScheduleStore.find of the slot. */
  slot: WeeklySlot | undefined;
  /** TimeOffStore.covering of the doctor on the date. */
  timeOff: TimeOff[];
  /** AppointmentStore.bookedTimes of the doctor on the date. */
  doctorBooked: TimeSpan[];
  /** WaitlistStore.holds of the doctor on the date. */
  holds: Hold[];
  /** AppointmentStore.bookedTimes of the patient on the date. */
  patientBooked: TimeSpan[];
  /** AppointmentStore.patientBookings of the patient with the doctor. */
  patientBookings: { withDoctorThatDay: number; upcoming: number };
}

/**
 * What a booking locks and reads, each in one statement, so it holds its pooled connection for two round trips
 * instead of eight.
 */
export interface PlacementStore {
  /**
   * Locks the doctor's row (an active doctor's) and then the patient's, as ScheduleStore.lockDoctor and
   * AppointmentStore.lockPatient would one after the other: whether there is such a doctor, and the patient (none
   * when there is no such patient, or no such doctor to book with).
   */
  lock(doctorId: number, patientId: number): Promise<{ doctor: boolean; patient: { hasEmail: boolean } | undefined }>;
  /** Asked once both are locked, so it sees every booking and offer committed before. */
  facts(ask: PlacementAsk): Promise<PlacementFacts>;
}

/** Taking a slot (`booking.ts`): the checks, the appointment, its audit row, the hold it fulfils and its messages. */
export interface BookingTx extends Notifying {
  appointments: Pick<AppointmentStore, 'insert'>;
  placements: PlacementStore;
  waitlist: Pick<WaitlistStore, 'closeOffer' | 'closeEntry'>;
  audit: AuditLog;
}

/** Offering a freed slot to the next in line (`slot-offers.ts`). */
export interface OfferingTx {
  schedules: Pick<ScheduleStore, 'lockDoctor' | 'currentSlots'>;
  timeOff: Pick<TimeOffStore, 'covering'>;
  appointments: Pick<AppointmentStore, 'bookedTimes'>;
  waitlist: Pick<WaitlistStore, 'holds' | 'nextInLine' | 'offer'>;
  audit: AuditLog;
  outbox: Notifying['outbox'];
}

/** What an offer needs besides its ports: the clock, the clinic's zone and how long an offer holds its slot. */
export interface OfferSettings {
  clock: Clock;
  /** The clinic's IANA zone: "today", "past" and AM/PM are its wall clock. */
  timeZone: string;
  /** How long a waitlist offer holds its slot (WAITLIST_HOLD_MINUTES). */
  waitlistHoldMinutes: number;
  clinic: NoticeSettings['clinic'];
}

/** The configuration scheduling and the waitlist share. */
export interface SchedulingSettings extends OfferSettings, NoticeSettings {
  bookingLimits: BookingLimits;
}

export interface SchedulingTxDeps extends Notifying {
  schedules: ScheduleStore;
  placements: PlacementStore;
  timeOff: TimeOffStore;
  appointments: AppointmentStore;
  waitlist: OfferPorts;
  audit: AuditLog;
}

export interface SchedulingDeps extends SchedulingTxDeps, SchedulingSettings {
  /** All or nothing: `fn` gets the same ports bound to one transaction. */
  transaction<T>(fn: (tx: SchedulingTxDeps) => Promise<T>): Promise<T>;
}

/** The waitlist's ports: its own store, and the slots and bookings an offer is checked against and taken with. */
export interface WaitlistTxDeps extends Notifying {
  schedules: SlotLookup;
  placements: PlacementStore;
  timeOff: Pick<TimeOffStore, 'covering'>;
  appointments: SlotBookings;
  waitlist: WaitlistStore;
  audit: AuditLog;
}

export interface WaitlistDeps extends WaitlistTxDeps, SchedulingSettings {
  /** All or nothing: `fn` gets the same ports bound to one transaction. */
  transaction<T>(fn: (tx: WaitlistTxDeps) => Promise<T>): Promise<T>;
}
