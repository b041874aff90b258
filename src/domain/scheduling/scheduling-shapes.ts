import { NamedShape } from '../shared/shared-shapes.ts';
import { anyOf, array, boolean, component, date, email, id, nullable, object, oneOfValues, ref, string, text, time, type Schema, type Static } from '../shared/wire-schema.ts';
import { DESK_EVENTS } from './lifecycle.ts';
import { APPOINTMENT_STATUSES, MAX_DAYS_AHEAD } from './scheduling.ts';

// Scheduling's requests and answers, written once (docs/architecture.md "The wire contract").

/** The appointment of docs/api.md, nested and with the flat names the tables show; every list answers this. */
export const appointmentFields = {
  id: id(),
  date: date(),
  start_time: time(),
  end_time: time(),
  status: oneOfValues(APPOINTMENT_STATUSES),
  patient: object({ id: id(), name: string(), email: nullable(email()) }, { description: 'The email is null for a patient registered at the desk without one' }),
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

export const hasStarted = boolean({ description: "Whether the visit's start has come by the clinic's clock" });

export const AppointmentShape = component('Appointment', object(appointmentFields));
export type AppointmentJson = Static<typeof AppointmentShape>;

/** An appointment in the patient's and the doctor's lists, which also say whether it has begun by the clinic's clock. */
export const ListedAppointmentShape = component('ListedAppointment', object({ ...appointmentFields, has_started: hasStarted }));
export type ListedAppointmentJson = Static<typeof ListedAppointmentShape>;

export const DeskAppointmentShape = component(
  'DeskAppointment',
  object({
    ...appointmentFields,
    has_started: hasStarted,
    desk_actions: array(oneOfValues(DESK_EVENTS), {
      description: 'What the desk can do to the visit now: check in on its day, no-show once started, undo either on its day',
    }),
  }),
);
export type DeskAppointmentJson = Static<typeof DeskAppointmentShape>;

export const AgendaVisitShape = component(
  'AgendaVisit',
  object({
    ...appointmentFields,
    has_started: hasStarted,
    can_record: boolean({ description: 'Whether the doctor can record the visit now: scheduled or checked in, and begun' }),
  }),
);
export type AgendaVisitJson = Static<typeof AgendaVisitShape>;

const slotFields = {
  schedule_id: id('The weekly slot to book'),
  start_time: time(),
  end_time: time(),
  status: oneOfValues(['available', 'booked', 'past'], '`booked`: overlaps a booked appointment, or a waitlist offer holds it for another patient'),
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

/** A doctor's first free time: what a doctor's card offers. */
export const NextFreeShape = object({ date: date(), start_time: time(), end_time: time() }, { description: "The doctor's first free slot from now" });
export type NextFreeJson = Static<typeof NextFreeShape>;

export const bookingDate = date(`The visit's date (default today): not in the past, at most ${MAX_DAYS_AHEAD} days ahead`);

export const BookRequest = object({ doctor_id: id(), schedule_id: id(), date: bookingDate }, { optional: ['date'] });

export const DeskBookRequest = object({ patient_id: id(), doctor_id: id(), schedule_id: id(), date: bookingDate }, { optional: ['date'] });

export const RescheduleRequest = object({ schedule_id: id(), date: bookingDate, doctor_id: id() }, { optional: ['date', 'doctor_id'] });

/** The token of a reminder's one-click cancel link. */
export const CancelLinkRequest = object({ token: text(200) });
