import type { ModulePaths } from '../module-paths.ts';
import { pageQuery } from '../components.ts';
import { PAYMENT_STATUSES } from '../../../domain/billing/billing.ts';
import {
  array,
  date,
  dateTime,
  id,
  integer,
  listOf,
  nullable,
  number,
  object,
  oneOfValues,
  ref,
  string,
  type Schema,
} from '../../../domain/shared/wire-schema.ts';
import { ADMISSION_STATUSES, BED_STATES, BLOCK_KINDS } from '../../../domain/inpatient/inpatient.ts';
import { ADMISSION_GROUPS } from '../../../domain/inpatient/ports.ts';

const money = (description: string): Record<string, Schema> => ({
  [description]: ref('Money'),
  [`${description}_cents`]: integer({ minimum: 0 }),
});
const text = (maxLength: number) => string({ minLength: 1, maxLength });
const counts = object(Object.fromEntries(BED_STATES.map((state) => [state, integer({ minimum: 0 })])));
const percent = nullable(
  number({
    minimum: 0,
    maximum: 100,
    description: 'Occupied beds out of the beds in service, in percent, to one decimal; null without beds',
  }),
);
const admissionAnswer = { 200: ref('AdmissionDetail') };
const bedAnswer = { 200: ref('Bed') };

const admissionFields: Record<string, Schema> = {
  id: id(),
  status: oneOfValues(ADMISSION_STATUSES),
  patient: ref('Named'),
  ward: ref('Named'),
  requested_by: ref('Named'),
  appointment_id: nullable(id()),
  expected_nights: integer({ minimum: 1, maximum: 365 }),
  bed: nullable(object({ id: id(), label: string(), room: ref('Named') })),
  requested_at: dateTime(),
  reserved_at: nullable(dateTime()),
  admitted_at: nullable(dateTime()),
  discharge_ordered_at: nullable(dateTime()),
  discharged_at: nullable(dateTime()),
  cancelled_at: nullable(dateTime()),
  reason: string({ description: 'The clinical reason; never answered to reception' }),
};

const summaryFields: Record<string, Schema> = {
  doctor: ref('Named'),
  diagnosis: string(),
  treatment: string(),
  medication: string(),
  instructions: string(),
  follow_up: string(),
  written_at: dateTime(),
};

const censusFigures: Record<string, Schema> = {
  department_id: id(),
  department: string(),
  admissions: integer({ minimum: 0 }),
  discharges: integer({ minimum: 0 }),
  transfers: integer({ minimum: 0 }),
  occupancy_percent: nullable(number({ minimum: 0 })),
};

const censusQuery = {
  from: date('First day (default: the first of this month)'),
  to: date('Last day (default: today); at most 366 days after from'),
  department_id: id('One ward only'),
};

/** The operations of src/http/routes/inpatient.ts. */
export const inpatientPaths: ModulePaths = {
  tag: 'Inpatient',
  description:
    'Beds, admissions and the midnight census. A bed belongs to a room, whose department is its ward. An admission goes requested → (reserved) → admitted → ' +
    'discharge_ordered → discharged, or is cancelled while waiting; each step is one transaction with its audit row. The database keeps one open admission ' +
    'per patient and one patient per bed, so racing desks get 409 `bed_taken` or `already_admitted`. Reception never receives the clinical reason or the ' +
    "discharge summary. A night is counted when the patient is in a bed at midnight in the clinic's zone.",
  schemas: {
    Bed: object({
      id: id(),
      label: string(),
      room: ref('Named'),
      ward: ref('Named'),
      state: oneOfValues(BED_STATES),
      since: dateTime('Since when the bed is in this state (for a held bed: since the holder took it)'),
      blocked: nullable(
        object({ kind: oneOfValues(BLOCK_KINDS), reason: nullable(string({ description: 'null for reception' })) }),
      ),
      occupant: nullable(
        object({
          admission_id: id(),
          patient: ref('Named'),
          since: dateTime(),
          late_doses: integer({
            minimum: 0,
            description: 'Medication doses overdue by more than 60 minutes (0 for reception)',
          }),
        }),
      ),
      retired: { type: 'boolean' },
    }),
    StayCharge: object({
      billing_id: id(),
      kind: oneOfValues(['interim', 'final']),
      first_night: date(),
      last_night: date(),
      payment_status: oneOfValues(PAYMENT_STATUSES),
      ...money('amount'),
      lines: array(
        object({
          bed_id: id(),
          bed: string(),
          room: string(),
          first_night: date(),
          last_night: date(),
          nights: integer({ minimum: 1 }),
          ...money('nightly_rate'),
          ...money('amount'),
        }),
      ),
    }),
    DischargeSummary: object(summaryFields),
    Admission: object(admissionFields, { optional: ['reason'] }),
    AdmissionDetail: object(
      {
        ...admissionFields,
        locations: array(
          object({
            bed_id: id(),
            bed: string(),
            room: ref('Named'),
            ward: ref('Named'),
            ...money('nightly_rate'),
            from: dateTime(),
            to: nullable(dateTime()),
          }),
        ),
        charges: array(ref('StayCharge')),
        discharge_summary: nullable(ref('DischargeSummary')),
      },
      { optional: ['reason', 'discharge_summary'] },
    ),
  },
  operations: {
    'POST /api/admin/rooms/{id}/beds': {
      summary: 'Add a bed to a room',
      access: 'admin',
      body: object({ label: text(40) }),
      answers: { 201: ref('Bed') },
      errors: [409],
    },
    'PUT /api/admin/rooms/{id}/bed-class': {
      summary: "Set a room's bed class and nightly rate",
      description: 'Stays already in its beds keep the rate they began with.',
      access: 'admin',
      body: object({ bed_class: text(60), nightly_rate: string({ description: 'Dollars, at most two decimals' }) }),
      answers: { 200: object({ room_id: id(), bed_class: string(), ...money('nightly_rate') }) },
    },
    'PUT /api/admin/beds/{id}': {
      summary: 'Rename a bed',
      access: 'admin',
      body: object({ label: text(40) }),
      answers: bedAnswer,
      errors: [409],
    },
    'POST /api/admin/beds/{id}/retire': {
      summary: 'Retire a bed',
      description: 'Refused with 409 `bed_occupied` while anyone holds it.',
      access: 'admin',
      answers: bedAnswer,
      errors: [409],
    },
    'POST /api/beds/{id}/block': {
      summary: 'Block a free bed for maintenance or isolation',
      access: ['reception', 'admin'],
      body: object({ kind: oneOfValues(BLOCK_KINDS), reason: text(500) }),
      answers: bedAnswer,
      errors: [409],
    },
    'POST /api/beds/{id}/unblock': {
      summary: 'Put a blocked bed back in service (to be cleaned)',
      access: ['reception', 'admin'],
      answers: bedAnswer,
      errors: [409],
    },
    'POST /api/beds/{id}/ready': {
      summary: 'Mark a cleaned bed ready',
      access: ['reception', 'admin'],
      answers: bedAnswer,
      errors: [409],
    },
    'GET /api/bed-board': {
      summary: 'The bed board',
      description:
        "Every ward (or one), its rooms and beds with their state and occupant, counts per state and occupancy. A nurse sees their own department's ward only.",
      access: ['doctor', 'nurse', 'reception', 'admin'],
      query: { department_id: id('One ward only') },
      answers: {
        200: object({
          wards: array(
            object({
              id: id(),
              name: string(),
              rooms: array(
                object({
                  id: id(),
                  name: string(),
                  bed_class: nullable(string()),
                  nightly_rate: nullable(ref('Money')),
                  nightly_rate_cents: nullable(integer({ minimum: 0 })),
                  beds: array(ref('Bed')),
                }),
              ),
              counts,
              beds: integer({ minimum: 0 }),
              occupancy_percent: percent,
            }),
          ),
          counts,
          beds: integer({ minimum: 0 }),
          occupancy_percent: percent,
        }),
      },
    },
    'POST /api/admissions': {
      summary: 'Request an admission',
      description:
        "A doctor asks for a patient (from their overview or a visit) to be admitted to a ward, and becomes the stay's admitting doctor: only a " +
        "doctor in the patient's care team, or one who broke the glass for them (an emergency admission), may; others get 404. 409 " +
        '`already_admitted` when the patient has an open admission.',
      access: 'doctor',
      body: object(
        {
          patient_id: id(),
          department_id: id(),
          expected_nights: integer({ minimum: 1, maximum: 365 }),
          reason: text(5000),
          appointment_id: id(),
        },
        { optional: ['appointment_id'] },
      ),
      answers: { 201: ref('AdmissionDetail') },
      errors: [404, 409],
    },
    'GET /api/admissions': {
      summary: 'List admissions',
      description:
        '`status` chooses waiting (default: requested and reserved), current (in a bed), past, or all; `q` searches patient names.',
      access: ['doctor', 'reception', 'admin'],
      query: { ...pageQuery, status: oneOfValues(Object.keys(ADMISSION_GROUPS)), department_id: id('One ward only') },
      answers: { 200: listOf('admissions', ref('Admission')) },
    },
    'GET /api/admissions/{id}': {
      summary: 'An admission with its locations and bills',
      access: ['doctor', 'reception', 'admin'],
      answers: admissionAnswer,
    },
    'POST /api/admissions/{id}/cancel': {
      summary: 'Cancel a waiting request or reservation',
      access: ['doctor', 'reception', 'admin'],
      answers: admissionAnswer,
      errors: [409],
    },
    'POST /api/admissions/{id}/reserve': {
      summary: 'Reserve a vacant bed for a waiting admission',
      access: ['reception', 'admin'],
      body: object({ bed_id: id() }),
      answers: admissionAnswer,
      errors: [409],
    },
    'POST /api/admissions/{id}/admit': {
      summary: 'Admit the patient into a vacant bed',
      description:
        '`bed_id` may be left out when a bed is reserved. 409 `bed_taken`, `bed_not_vacant`, `already_admitted`.',
      access: ['reception', 'admin'],
      body: object({ bed_id: id() }, { optional: ['bed_id'] }),
      answers: admissionAnswer,
      errors: [409],
    },
    'POST /api/admissions/{id}/undo': {
      summary: 'Undo a mistaken admission or reservation',
      description:
        'The request waits again and the bed is vacant. An admission only within 15 minutes and before any transfer (409 `undo_window_passed`).',
      access: ['reception', 'admin'],
      answers: admissionAnswer,
      errors: [409],
    },
    'POST /api/admissions/{id}/transfer': {
      summary: 'Transfer the patient to another bed',
      description:
        'The current bed is left to be cleaned; the location history keeps both. 409 `bed_taken`, `already_discharged`.',
      access: ['reception', 'admin'],
      body: object({ bed_id: id() }),
      answers: admissionAnswer,
      errors: [409],
    },
    'POST /api/admissions/{id}/discharge-order': {
      summary: 'Order the discharge and write its summary',
      access: 'doctor',
      body: object(
        {
          diagnosis: text(5000),
          treatment: text(5000),
          medication: string({ maxLength: 5000 }),
          instructions: string({ maxLength: 5000 }),
          follow_up: string({ maxLength: 5000 }),
        },
        { optional: ['medication', 'instructions', 'follow_up'] },
      ),
      answers: admissionAnswer,
      errors: [409],
    },
    'POST /api/admissions/{id}/discharge': {
      summary: 'Confirm the patient has left',
      description:
        'The bed goes to cleaning and the nights not yet billed become one bill with a line per bed, in the same transaction.',
      access: ['reception', 'admin'],
      answers: admissionAnswer,
      errors: [409],
    },
    'GET /api/admissions/{id}/discharge-summary': {
      summary: 'The discharge summary, to print',
      access: ['doctor', 'admin', 'patient'],
      answers: {
        200: object({
          admission_id: id(),
          patient: ref('Named'),
          ward: ref('Named'),
          admitted_at: nullable(dateTime()),
          discharged_at: nullable(dateTime()),
          ...summaryFields,
          medicines_to_continue: array(
            object({ order_id: id(), medicine: string(), words: string({ description: 'As the prescription reads' }) }),
            { description: 'The ward’s medicine orders marked to continue after discharge and not discontinued' },
          ),
        }),
      },
    },
    'GET /api/patient/admissions': {
      summary: "The patient's own current and past stays",
      access: 'patient',
      answers: { 200: object({ admissions: array(ref('AdmissionDetail')) }) },
    },
    'POST /api/admin/interim-bills': {
      summary: 'Bill every whole week of long stays not yet billed',
      description: 'Idempotent: a week is billed once however often this runs.',
      access: 'admin',
      answers: { 200: object({ bills: integer({ minimum: 0 }) }) },
    },
    'GET /api/admin/census': {
      summary: 'The midnight census per ward and day',
      access: 'admin',
      query: censusQuery,
      answers: {
        200: object({
          from: date(),
          to: date(),
          time_zone: string(),
          days: array(
            object({
              date: date(),
              beds: integer({ minimum: 0 }),
              in_bed_at_midnight: integer({ minimum: 0 }),
              ...censusFigures,
            }),
          ),
          wards: array(
            object({
              patient_nights: integer({ minimum: 0 }),
              bed_nights: integer({ minimum: 0 }),
              average_length_of_stay: nullable(number({ minimum: 0 })),
              ...censusFigures,
            }),
          ),
        }),
      },
    },
    'GET /api/admin/census.csv': {
      summary: 'The midnight census as CSV',
      access: 'admin',
      query: censusQuery,
      answers: { 200: { content: { 'text/csv': string() } } },
    },
  },
};
