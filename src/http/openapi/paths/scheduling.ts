import type { ModulePaths } from '../module-paths.ts';
import { DESK_ROLES } from '../../../domain/shared/actor.ts';
import { MAX_DAYS_AHEAD } from '../../../domain/scheduling/scheduling.ts';
import {
  AgendaQuery,
  AgendaShape,
  AppointmentListQuery,
  AvailableSlotsQuery,
  AgendaVisitShape,
  AppointmentShape,
  AvailableSlotShape,
  AvailableSlotsShape,
  BookRequest,
  CancelLinkRequest,
  DeskAppointmentShape,
  DeskAppointmentsQuery,
  DeskBookRequest,
  DeskDayQuery,
  NextAvailableQuery,
  MonthAvailabilityQuery,
  MonthAvailabilityShape,
  DeskDayShape,
  ScheduleRequest,
  ScheduleShape,
  WeeklySlotShape,
  WorkingHoursShape,
  ListedAppointmentShape,
  NextAvailableShape,
  RescheduleRequest,
} from '../../../domain/scheduling/scheduling-shapes.ts';
import { listOf, propertiesOf, object, ref, string } from '../../../domain/shared/wire-schema.ts';
import { pageQuery } from '../components.ts';

const bookingErrors =
  "A slot that is not the doctor's current one for that date's weekday, has started already, or falls in a leave or closure → 422 naming `schedule_id`; taken, or held by a waitlist " +
  'offer for another patient → 409 `slot_taken`; the patient has another appointment overlapping it → 409 `patient_busy`; an unknown or inactive doctor → 404.';

const appointmentQuery = { ...pageQuery, ...propertiesOf(AppointmentListQuery) };

/** The operations of src/http/routes/scheduling.ts. */
export const schedulingPaths: ModulePaths = {
  tag: 'Scheduling',
  description:
    "Doctors' weekly slots, free times, booking and the life of an appointment. Patients book and move their own visits within the clinic's " +
    'booking limits (409 `booking_limit`) and cancel them before they start (409 `appointment_started`); the front desk (reception and admins) books, ' +
    'moves, cancels, checks in and marks no-shows for anyone. A visit goes `scheduled → checked_in → completed`, `scheduled → completed`, ' +
    "`scheduled → no_show`, `scheduled | checked_in → cancelled`, and back `checked_in | no_show → scheduled` (the desk's undo on the visit's day); " +
    'any other move is 409 `invalid_transition`. A slot someone holds is 409 `slot_taken`. ' +
    `Visits are booked from today up to ${MAX_DAYS_AHEAD} days ahead; dates are \`yyyy-MM-dd\` and times \`HH:mm\` in the clinic's time zone.`,
  schemas: {
    Appointment: AppointmentShape,
    ListedAppointment: ListedAppointmentShape,
    DeskAppointment: DeskAppointmentShape,
    AgendaVisit: AgendaVisitShape,
    WeeklySlot: WeeklySlotShape,
    WorkingHours: WorkingHoursShape,
    Schedule: ScheduleShape,
    AvailableSlot: AvailableSlotShape,
  },
  operations: {
    'GET /api/admin/doctors/{id}/schedule': {
      summary: "Get a doctor's working hours and weekly slots",
      description:
        "Admins only. The active doctor's working hours, exactly as saved, and the weekly slots they give; an unknown or inactive doctor → 404.",
      access: 'admin',
      answers: { 200: ref(ScheduleShape) },
    },
    'PUT /api/admin/doctors/{id}/schedule': {
      summary: "Replace a doctor's working hours",
      description:
        'Admins only; audited. `hours`: any number of ranges a weekday (a lunch break is the gap between two), each cut into back-to-back slots of its ' +
        '`slot_minutes` in its room; a remainder too short for a slot stays free. Also accepted: the same hours on several `days`, or explicit `slots` ' +
        '(back-to-back slots of one length and room become one range). Overlapping ranges → 422 naming `hours` (or `slots`). Slots that stay keep their `id`; ' +
        'booked appointments keep their slot and times. The saved hours again change nothing.',
      access: 'admin',
      body: ScheduleRequest,
      answers: { 200: ref(ScheduleShape) },
    },
    'GET /api/appointments/next-available': {
      summary: 'Find the next days with a free slot',
      description:
        `Any signed-in user. Exactly one of \`doctor_id\` and \`department_id\` (else 422 naming it). The first 3 days from \`from\` to ${MAX_DAYS_AHEAD} days ahead ` +
        "with a free slot, each with only its free slots; with `department_id`, over the department's active doctors, each slot naming its doctor. " +
        'A slot in a leave or a closure, or one a waitlist offer holds for someone else, is not free. An unknown doctor or department → 404.',
      access: 'user',
      query: NextAvailableQuery,
      answers: {
        200: NextAvailableShape,
      },
      errors: [404],
    },
    'GET /api/appointments/available/{doctorId}': {
      summary: "A doctor's slots on a day",
      description:
        "Any signed-in user. Every slot of the doctor's pattern on `date` that no leave or clinic closure takes away, by time, each `available`, `booked` " +
        'or `past`. An unknown or inactive doctor → 404.',
      access: 'user',
      query: AvailableSlotsQuery,
      answers: { 200: AvailableSlotsShape },
    },
    'GET /api/appointments/month/{doctorId}': {
      summary: "A doctor's month for booking",
      description:
        'Any signed-in user. Every day of the month of `month` (default this month): `open` with how many slots are free, `full`, `closed` with why ' +
        "(a clinic closure and its name, or the doctor's leave), `off` (the doctor does not work that weekday) or `outside` the booking window; " +
        `counted as the day's slots are. \`month\` from this month to the one ${MAX_DAYS_AHEAD} days ahead, else 422. An unknown or inactive doctor → 404.`,
      access: 'user',
      query: MonthAvailabilityQuery,
      answers: { 200: MonthAvailabilityShape },
      errors: [404],
    },
    'POST /api/appointments/book': {
      summary: 'Book an appointment',
      description: `Patients only, for themselves, within the booking limits (409 \`booking_limit\`). ${bookingErrors} The patient is e-mailed a confirmation.`,
      access: 'patient',
      body: BookRequest,
      answers: { 201: ref('Appointment') },
      errors: [404, 409],
    },
    'GET /api/appointments/day': {
      summary: "The front desk's day at a glance",
      description:
        "Reception and admins. How many visits of `date` (default today; only `doctor_id`'s when given) are in each status, cancelled ones too, " +
        "with the clinic's today and the days before and after `date`.",
      access: [...DESK_ROLES],
      query: DeskDayQuery,
      answers: { 200: DeskDayShape },
    },
    'GET /api/appointments': {
      summary: "The front desk's appointments",
      description:
        "Reception and admins; audited. A day's appointments (`date`, default today) in the order of the day, its cancelled ones only with " +
        "`status=cancelled`; or with `patient_id` all of one patient's (`date` optional), upcoming first. `doctor_id` keeps one doctor's; " +
        '`q` searches names.',
      access: [...DESK_ROLES],
      query: { ...appointmentQuery, ...propertiesOf(DeskAppointmentsQuery) },
      answers: { 200: listOf('appointments', ref('DeskAppointment')) },
    },
    'POST /api/appointments': {
      summary: 'Book an appointment for a patient',
      description: `Reception and admins, without booking limits. An unknown patient → 422 naming \`patient_id\`. ${bookingErrors}`,
      access: [...DESK_ROLES],
      body: DeskBookRequest,
      answers: { 201: ref('Appointment') },
      errors: [404, 409],
    },
    'POST /api/appointments/{id}/reschedule': {
      summary: 'Move an appointment',
      description:
        "A patient moves their own (another's → 404) before it starts (409 `appointment_started`), within the booking limits (409 `booking_limit`); " +
        "reception and admins move anyone's. Only a `scheduled` visit moves (else 409 `invalid_transition`). `doctor_id` defaults to the appointment's doctor. " +
        `In one transaction the new slot is taken and the old one freed; audited, and the patient is e-mailed the new time. ${bookingErrors}`,
      access: ['patient', ...DESK_ROLES],
      body: RescheduleRequest,
      answers: { 200: ref('Appointment') },
      errors: [409],
    },
    'POST /api/appointments/{id}/cancel': {
      summary: 'Cancel an appointment (front desk)',
      description:
        'Reception and admins; audited. Any `scheduled` or `checked_in` appointment, past ones too; otherwise 409 `invalid_transition`. Its slot is freed.',
      access: [...DESK_ROLES],
      answers: { 200: ref('Appointment') },
      errors: [409],
    },
    'POST /api/appointments/{id}/check-in': {
      summary: 'Check a patient in',
      description:
        'Reception and admins; audited. A `scheduled` appointment (else 409 `invalid_transition`) on its day (else 409 `not_visit_day`).',
      access: [...DESK_ROLES],
      answers: { 200: ref('Appointment') },
      errors: [409],
    },
    'POST /api/appointments/{id}/no-show': {
      summary: 'Mark a visit a no-show',
      description:
        'Reception and admins; audited. A `scheduled` appointment (else 409 `invalid_transition`) once its start has passed (else 409 `visit_not_started`); it keeps its slot.',
      access: [...DESK_ROLES],
      answers: { 200: ref('Appointment') },
      errors: [409],
    },
    'POST /api/appointments/{id}/undo-check-in': {
      summary: 'Take a check-in back',
      description:
        'Reception and admins; audited. A `checked_in` appointment (else 409 `invalid_transition`) on its day (else 409 `not_visit_day`) is `scheduled` again.',
      access: [...DESK_ROLES],
      answers: { 200: ref('Appointment') },
      errors: [409],
    },
    'POST /api/appointments/{id}/undo-no-show': {
      summary: 'Take a no-show back',
      description:
        'Reception and admins; audited. A `no_show` appointment (else 409 `invalid_transition`) on its day (else 409 `not_visit_day`) is `scheduled` again.',
      access: [...DESK_ROLES],
      answers: { 200: ref('Appointment') },
      errors: [409],
    },
    'POST /api/patient/appointments/{id}/cancel': {
      summary: 'Cancel my appointment',
      description:
        "Patients only, their own (another patient's → 404). Not `scheduled` or `checked_in` → 409 `invalid_transition`; started already → 409 `appointment_started`.",
      access: 'patient',
      answers: { 200: ref('Appointment') },
      errors: [409],
    },
    'POST /api/appointment-links/preview': {
      summary: 'What a cancel link would cancel',
      description:
        "Public: the token of a reminder's one-click cancel link. Nothing changes. An unknown, used or expired link, or one whose appointment is no " +
        'longer scheduled → 422 `cancel_link_invalid`.',
      access: 'public',
      body: CancelLinkRequest,
      answers: { 200: object({ appointment: ref('Appointment') }) },
    },
    'POST /api/appointment-links/cancel': {
      summary: "Cancel by a reminder's link",
      description:
        "Public: follows a reminder's cancel link, once, without signing in; audited. Refusals as the preview; a visit that has started → 409 `appointment_started`.",
      access: 'public',
      body: CancelLinkRequest,
      answers: { 200: object({ appointment: ref('Appointment') }) },
      errors: [409],
    },
    'POST /api/admin/appointments/{id}/cancel': {
      summary: 'Cancel an appointment (admin)',
      description:
        'Admins only; audited. Any `scheduled` or `checked_in` appointment, past ones too; otherwise 409 `invalid_transition`.',
      access: 'admin',
      answers: { 200: ref('Appointment') },
      errors: [409],
    },
    'GET /api/patient/appointments': {
      summary: 'My appointments',
      description:
        'Patients only. Upcoming first (soonest first), then past ones (latest first); `q` searches doctor, department and room.',
      access: 'patient',
      query: appointmentQuery,
      answers: { 200: listOf('appointments', ref('ListedAppointment')) },
    },
    'GET /api/patient/appointments/{id}/calendar.ics': {
      summary: 'My appointment as a calendar file',
      description:
        "Patients only, their own (another patient's → 404, the attempt audited). The appointment as an iCalendar download with the same event (UID, " +
        "SEQUENCE, times in the clinic's zone, place) as its e-mailed invitation, without METHOD; a cancelled one has STATUS:CANCELLED.",
      access: 'patient',
      answers: {
        200: {
          description: 'The iCalendar file',
          content: { 'text/calendar': string() },
          headers: { 'Content-Disposition': string() },
        },
      },
    },
    'GET /api/doctor/appointments': {
      summary: "The doctor's appointments",
      description:
        "Doctors only, their own; audited. Upcoming first, then past ones; `q` searches the patient's name and e-mail.",
      access: 'doctor',
      query: appointmentQuery,
      answers: { 200: listOf('appointments', ref('ListedAppointment')) },
    },
    'GET /api/doctor/agenda': {
      summary: "The doctor's day or week",
      description:
        "Doctors only; audited. The doctor's visits not cancelled, in time order, grouped by date: one day, or the Monday-to-Sunday week around `date`. " +
        "`previous` and `next` are the dates the day or week before and after start on. Each day lists the doctor's leave and the clinic's closures " +
        'that day; visits inside them stay until the desk moves them.',
      access: 'doctor',
      query: AgendaQuery,
      answers: { 200: AgendaShape },
    },
  },
};
