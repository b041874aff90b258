import { NamedShape } from '../shared/shared-shapes.ts';
import {
  anyOf,
  array,
  boolean,
  component,
  date,
  dateTime,
  email,
  id,
  integer,
  nullable,
  object,
  oneOfValues,
  queryOf,
  ref,
  refusedAs,
  string,
  text,
  time,
  type Schema,
  type Static,
} from '../shared/wire-schema.ts';
import type { TInteger } from 'typebox';
import { DESK_EVENTS } from './lifecycle.ts';
import {
  AGENDA_VIEWS,
  APPOINTMENT_STATUSES,
  APPOINTMENT_WHEN,
  MAX_DAYS_AHEAD,
  type AppointmentStatus,
} from './scheduling.ts';
import { MONTH_DAY_STATES } from './month-view.ts';
import { MAX_TIME_OFF_DAYS } from './time-off.ts';

// Scheduling's requests and answers, written once (docs/architecture.md "The wire contract").

/** The appointment of docs/api.md, nested and with the flat names the tables show; every list answers this. */
const appointmentFields = {
  id: id(),
  date: date(),
  start_time: time(),
  end_time: time(),
  status: oneOfValues(APPOINTMENT_STATUSES),
  patient: object(
    { id: id(), name: string(), email: nullable(email()) },
    { description: 'The email is null for a patient registered at the desk without one' },
  ),
  doctor: object({ id: id(), name: string(), email: email() }),
  department: nullable(ref(NamedShape)),
  room: nullable(ref(NamedShape)),
  patient_name: string(),
  patient_email: nullable(email()),
  doctor_name: string(),
  doctor_email: email(),
  department_name: nullable(string()),
  room_name: nullable(string()),
};

const hasStarted = boolean({ description: "Whether the visit's start has come by the clinic's clock" });

export const AppointmentShape = component('Appointment', object(appointmentFields));
export type AppointmentJson = Static<typeof AppointmentShape>;

/** An appointment in the patient's and the doctor's lists, which also say whether it has begun by the clinic's clock. */
export const ListedAppointmentShape = component(
  'ListedAppointment',
  object({ ...appointmentFields, has_started: hasStarted }),
);
export type ListedAppointmentJson = Static<typeof ListedAppointmentShape>;

export const DeskAppointmentShape = component(
  'DeskAppointment',
  object({
    ...appointmentFields,
    has_started: hasStarted,
    patient_birth_date: nullable(date('As the printed day list shows it; null when not given')),
    desk_actions: array(oneOfValues(DESK_EVENTS), {
      description:
        'What the desk can do to the visit now: check in on its day, no-show once started, undo either on its day',
    }),
  }),
);
export type DeskAppointmentJson = Static<typeof DeskAppointmentShape>;

export const AgendaVisitShape = component(
  'AgendaVisit',
  object({
    ...appointmentFields,
    has_started: hasStarted,
    can_record: boolean({
      description: 'Whether the doctor can record the visit now: scheduled or checked in, and begun',
    }),
  }),
);
export type AgendaVisitJson = Static<typeof AgendaVisitShape>;

const slotFields = {
  schedule_id: id('The weekly slot to book'),
  start_time: time(),
  end_time: time(),
  status: oneOfValues(
    ['available', 'booked', 'past'],
    '`booked`: overlaps a booked appointment, or a waitlist offer holds it for another patient',
  ),
  period: oneOfValues(['AM', 'PM'], 'AM when the slot starts before noon'),
};

export const AvailableSlotShape = component('AvailableSlot', object(slotFields));
export type SlotJson = Static<typeof AvailableSlotShape>;

const availableOn = <Slot extends Schema>(slot: Slot) => object({ date: date(), available_appointments: array(slot) });

export const AvailableSlotsShape = availableOn(ref(AvailableSlotShape));
export type AvailableSlotsJson = Static<typeof AvailableSlotsShape>;

/** The first days with a free slot, each with only its free slots; for a department, each slot names its doctor. */
export const NextAvailableShape = anyOf(
  object({ doctor_id: id(), days: array(availableOn(ref(AvailableSlotShape))) }),
  object({ department_id: id(), days: array(availableOn(object({ ...slotFields, doctor: ref(NamedShape) }))) }),
);
export type NextAvailableJson = Static<typeof NextAvailableShape>;

/** A doctor's month for the booking page's month view, read at once. */
export const MonthAvailabilityShape = object({
  doctor_id: id(),
  month: string({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'The month shown, `yyyy-MM`' }),
  today: date("Today by the clinic's clock"),
  last_bookable: date('The last day of the booking window'),
  previous: nullable(date('The first day of the month before, null when it holds no bookable day')),
  next: nullable(date('The first day of the month after, null when it holds no bookable day')),
  days: array(
    object({
      date: date(),
      state: oneOfValues(
        MONTH_DAY_STATES,
        '`open`: a slot is free; `full`: every slot is booked, held or over; `closed`: a clinic closure or the ' +
          "doctor's leave takes every slot away; `off`: the doctor does not work that weekday; `outside`: before " +
          'today or after the booking window',
      ),
      free: integer({ minimum: 0, description: 'How many slots are free' }),
      closed: nullable(
        object(
          {
            kind: oneOfValues(['closure', 'leave']),
            name: nullable(string({ description: "A closure's name (the holiday); null for a doctor's leave" })),
          },
          { description: 'Why a `closed` day is closed; null on any other day' },
        ),
      ),
    }),
    { description: 'Every day of the month, first to last' },
  ),
});
export type MonthAvailabilityJson = Static<typeof MonthAvailabilityShape>;

/** A doctor's first free time: what a doctor's card offers. */
export const NextFreeShape = object(
  { date: date(), start_time: time(), end_time: time() },
  { description: "The doctor's first free slot from now" },
);
export type NextFreeJson = Static<typeof NextFreeShape>;

const weekday = integer({ minimum: 1, maximum: 7, description: 'ISO weekday: 1 = Monday … 7 = Sunday' });

export const WeeklySlotShape = component(
  'WeeklySlot',
  object({ id: id(), weekday, start_time: time(), end_time: time(), room: nullable(ref(NamedShape)) }),
);
export type WeeklySlotJson = Static<typeof WeeklySlotShape>;

export const WorkingHoursShape = component(
  'WorkingHours',
  object(
    {
      weekday,
      start_time: time(),
      end_time: time(),
      slot_minutes: integer({ minimum: 1 }),
      room: nullable(ref(NamedShape)),
    },
    { description: 'One range of a weekday, cut into back-to-back slots of `slot_minutes`' },
  ),
);
export type HoursRangeJson = Static<typeof WorkingHoursShape>;

// A doctor's week as the admin's schedule form sends it (PUT …/schedule), in one of three forms; working-hours.ts
// reads the lists and their rules (overlaps, a slot that fits its range).

export const MIN_SLOT_MINUTES = 5;
export const MAX_SLOT_MINUTES = 480;
export const MAX_SLOTS = 2016; // every 5 minutes, all week
export const MAX_RANGES = 7 * 24;
export const WEEKDAY_RULE = 'must be a weekday from 1 (Monday) to 7 (Sunday)';

const weekdayGiven = () =>
  refusedAs(integer({ minimum: 1, maximum: 7, description: 'ISO weekday: 1 = Monday … 7 = Sunday' }), WEEKDAY_RULE);
const span = { start_time: time(), end_time: time('After start_time') };
const dayHours = {
  ...span,
  slot_minutes: integer({
    minimum: MIN_SLOT_MINUTES,
    maximum: MAX_SLOT_MINUTES,
    description: "Each slot's length; it must fit between start_time and end_time",
  }),
  room_id: id(),
};

/** The hours of a day, as the `days` form gives them for each of its days. */
export const DayHoursRequest = object(dayHours, { optional: ['room_id'] });
/** One range of `hours`. */
export const HoursRangeRequest = object({ weekday: weekdayGiven(), ...dayHours }, { optional: ['room_id'] });
/** One of explicit `slots`. */
export const SlotRequest = object({ weekday: weekdayGiven(), ...span, room_id: id() }, { optional: ['room_id'] });

export const ScheduleRequest = anyOf(
  object({ hours: array(HoursRangeRequest, { maxItems: MAX_RANGES }) }),
  object({ slots: array(SlotRequest, { maxItems: MAX_SLOTS }) }),
  object({ days: array(weekday, { minItems: 1, uniqueItems: true }), ...dayHours }, { optional: ['room_id'] }),
);

/** A doctor's working hours and the weekly slots they give, as the admin's schedule form shows them. */
export const ScheduleShape = component(
  'Schedule',
  object({ hours: array(ref(WorkingHoursShape)), slots: array(ref(WeeklySlotShape)) }),
);
export type ScheduleJson = Static<typeof ScheduleShape>;

/** The desk's day at a glance: how many visits of the day (of one doctor, when given) are in each status, cancelled ones too. */
export const DeskDayShape = object({
  date: date(),
  today: date("Today by the clinic's clock"),
  previous: date(),
  next: date(),
  doctor_id: nullable(id()),
  counts: object(
    Object.fromEntries(APPOINTMENT_STATUSES.map((status) => [status, integer({ minimum: 0 })])) as Record<
      AppointmentStatus,
      TInteger
    >,
  ),
});
export type DeskDayJson = Static<typeof DeskDayShape>;

const bookingDate = date(`The visit's date (default today): not in the past, at most ${MAX_DAYS_AHEAD} days ahead`);

export const AvailableSlotsQuery = queryOf({ date: bookingDate });

export const MonthAvailabilityQuery = queryOf({
  month: date(
    `Any day of the month to show (default this month): from this month to the one ${MAX_DAYS_AHEAD} days ahead`,
  ),
});

export const NextAvailableQuery = queryOf({
  doctor_id: id(),
  department_id: id(),
  from: date(`The first day to look at (default today): not in the past, at most ${MAX_DAYS_AHEAD} days ahead`),
});

/** The appointment lists' filters, beside the page parameters. */
export const AppointmentListQuery = queryOf({
  status: oneOfValues(APPOINTMENT_STATUSES),
  when: oneOfValues(
    APPOINTMENT_WHEN,
    '`upcoming`: only visits to come (scheduled or checked in, today or later); `past`: only the others',
  ),
});

export const DeskAppointmentsQuery = queryOf({ date: date(), patient_id: id(), doctor_id: id() });

export const DeskDayQuery = queryOf({ date: date(), doctor_id: id() });

export const AgendaQuery = queryOf({ date: date('Default today'), view: oneOfValues(AGENDA_VIEWS, 'Default `day`') });

export const BookRequest = object({ doctor_id: id(), schedule_id: id(), date: bookingDate }, { optional: ['date'] });

export const DeskBookRequest = object(
  { patient_id: id(), doctor_id: id(), schedule_id: id(), date: bookingDate },
  { optional: ['date'] },
);

export const RescheduleRequest = object(
  { schedule_id: id(), date: bookingDate, doctor_id: id() },
  { optional: ['date', 'doctor_id'] },
);

/** The token of a reminder's one-click cancel link. */
export const CancelLinkRequest = object({ token: text(200) });

// --- time off: a doctor's leave and the clinic's closures

export const TimeOffShape = component(
  'TimeOff',
  object(
    {
      id: id(),
      kind: oneOfValues(['leave', 'closure'], '`closure`: the whole clinic'),
      doctor: nullable(ref(NamedShape)),
      starts_on: date(),
      ends_on: date(),
      start_time: nullable(time()),
      end_time: nullable(time()),
      reason: string(),
    },
    { description: 'Whole days when the times are null' },
  ),
);
export type TimeOffJson = Static<typeof TimeOffShape>;

export const VisitToMoveShape = component(
  'VisitToMove',
  object({ ...appointmentFields, has_started: hasStarted, time_off: ref(TimeOffShape) }),
);
export type VisitToMoveJson = Static<typeof VisitToMoveShape>;

/** What adding leave or a closure answers: the new time off, and the visits inside it for the desk to move. */
export const TimeOffAddedShape = object({
  time_off: ref(TimeOffShape),
  visits_to_move: array(ref(VisitToMoveShape), { description: 'The first 200 visits still scheduled inside it' }),
  visits_to_move_total: integer({ minimum: 0 }),
});
export type TimeOffAddedJson = Static<typeof TimeOffAddedShape>;

const timeOffFields = {
  starts_on: date('The first day'),
  ends_on: date(
    `The last day (default \`starts_on\`); not in the past, at most ${MAX_TIME_OFF_DAYS} days after \`starts_on\``,
  ),
  start_time: time('With `end_time`: only this part of each day'),
  end_time: time('After `start_time`'),
};

export const TimeOffListQuery = queryOf({ doctor_id: id(), from: date() });

export const LeaveRequest = object(
  { ...timeOffFields, reason: text(200, { rule: 'line', min: 0, description: 'Optional' }) },
  { optional: ['ends_on', 'start_time', 'end_time', 'reason'] },
);

export const ClosureRequest = object(
  { ...timeOffFields, reason: text(200, { rule: 'line', description: 'Required, e.g. the holiday' }) },
  { optional: ['ends_on', 'start_time', 'end_time'] },
);

// --- the waitlist

const holdUntil = string({
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2} ([01][0-9]|2[0-3]):[0-5][0-9]$',
  description: "When the hold ends, on the clinic's wall clock: `yyyy-MM-dd HH:mm`",
});

const heldSlot = { date: date(), start_time: time(), end_time: time(), expires_at: dateTime(), hold_until: holdUntil };

export const WaitlistEntryShape = component(
  'WaitlistEntry',
  object({
    id: id(),
    doctor: ref(NamedShape),
    doctor_name: string(),
    from_date: date(),
    to_date: date(),
    joined_at: dateTime(),
    offer: nullable(object(heldSlot, { description: 'The slot held for the patient now' })),
  }),
);
export type WaitlistEntryJson = Static<typeof WaitlistEntryShape>;

export const WaitlistOfferShape = object({ doctor: ref(NamedShape), ...heldSlot });
export type WaitlistOfferJson = Static<typeof WaitlistOfferShape>;

const entryDays = {
  from_date: date(`The first day the patient could come: from today to ${MAX_DAYS_AHEAD} days ahead`),
  to_date: date('The last day, not before `from_date`, within the same window'),
};

export const WaitlistJoinRequest = object({ doctor_id: id(), ...entryDays });

export const DeskWaitlistRequest = object({ patient_id: id(), doctor_id: id(), ...entryDays });

export const OfferLinkRequest = object({ token: text(200, { description: "The token of the offer e-mail's link" }) });

/** A doctor's agenda of a day or a week, with the dates the previous and the next one start on. */
export const AgendaShape = object({
  view: oneOfValues(AGENDA_VIEWS),
  date: date(),
  today: date(),
  previous: date(),
  next: date(),
  days: array(object({ date: date(), visits: array(ref(AgendaVisitShape)), time_off: array(ref(TimeOffShape)) })),
});
export type AgendaJson = Static<typeof AgendaShape>;
