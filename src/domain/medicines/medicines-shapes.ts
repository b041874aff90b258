import { PageQuery } from '../shared/pagination.ts';
import { NamedShape } from '../shared/shared-shapes.ts';
import {
  amount,
  array,
  boolean,
  component,
  date,
  dateTime,
  id,
  integer,
  nullable,
  number,
  object,
  oneOfValues,
  propertiesOf,
  queryOf,
  ref,
  type Static,
  string,
  text,
  time,
} from '../shared/wire-schema.ts';
import {
  ALLERGY_SEVERITIES,
  ALLERGY_STATUSES,
  ALLERGY_TYPES,
  MAX_OVERRIDE_REASON,
  MAX_REACTION,
  MAX_SUBSTANCE_TEXT,
} from './allergies.ts';
import { DOSE_FORMS, MAX_GENERIC_NAME, MAX_STRENGTH, ROUTE_NAMES } from './formulary.ts';
import { DOSE_OUTCOMES, DOSE_STATUSES, MAX_DOSE_REASON, ORDER_STATUSES } from './mar.ts';
import {
  FREQUENCY_KINDS,
  MAX_AT_TIMES,
  MAX_DURATION_DAYS,
  MAX_EVERY_HOURS,
  MAX_INSTRUCTIONS,
  MAX_PER_DAY,
  MAX_QUANTITY,
} from './prescriptions.ts';

// Medicines' requests and answers, written once (docs/architecture.md "The wire contract").

const MAX_PRICE_CENTS = 100_000_000;
const MAX_DOSE_AMOUNT = 1_000_000;

// ── Requests ─────────────────────────────────────────────────────────────────────────────────────────────────────

export const FormularyRequestShape = object(
  {
    generic_name: text(MAX_GENERIC_NAME, { rule: 'line' }),
    form: oneOfValues(DOSE_FORMS),
    strength: text(MAX_STRENGTH, { rule: 'line', description: 'As the pack says it: "500 mg", "125 mg/5 mL"' }),
    routes: array(oneOfValues(ROUTE_NAMES), { minItems: 1, maxItems: ROUTE_NAMES.length }),
    dose_unit: text(64, { rule: 'line', description: 'The UCUM unit a dose is written in: mg, mL, [iU], {puff}' }),
    price: amount(MAX_PRICE_CENTS, { zero: true, description: 'Per dose given or dispensed; none when not charged' }),
    active: boolean({ description: 'Listed for prescribing (update only; a new medicine is active)' }),
  },
  { optional: ['price', 'active'] },
);

export const FormularyQuery = queryOf({
  ...propertiesOf(PageQuery),
  include_inactive: oneOfValues(['true', 'false'] as const, 'Also medicines no longer listed for prescribing'),
});

export const AllergyRequestShape = object(
  {
    medicine_id: id('A formulary medicine the patient reacts to (or `substance`)'),
    substance: text(MAX_SUBSTANCE_TEXT, { rule: 'line', description: 'What the patient reacts to, in words' }),
    no_known_allergies: boolean({ description: 'Records "no known allergies" instead of an allergy' }),
    type: oneOfValues(ALLERGY_TYPES, 'allergy (the default) or intolerance'),
    reaction: text(MAX_REACTION, { min: 0 }),
    severity: oneOfValues(ALLERGY_SEVERITIES),
  },
  { optional: ['medicine_id', 'substance', 'no_known_allergies', 'type', 'reaction', 'severity'] },
);

export const AllergyStatusRequestShape = object({ status: oneOfValues(ALLERGY_STATUSES) });

export const MedicationRequestShape = object(
  {
    appointment_id: id('The visit the prescription is written at (or `admission_id`)'),
    admission_id: id('The stay an inpatient order is for: its doses are scheduled on the ward (or `appointment_id`)'),
    medicine_id: id('A formulary medicine'),
    dose: number({ minimum: 0, maximum: MAX_DOSE_AMOUNT, description: 'The amount of one dose, in `dose_unit`' }),
    dose_unit: text(64, { rule: 'line', description: "UCUM; converted to the medicine's own dose unit" }),
    route: text(20, { rule: 'line', description: 'One of the medicine’s routes' }),
    frequency: oneOfValues(FREQUENCY_KINDS),
    times_a_day: integer({
      minimum: 1,
      maximum: 6,
      description: 'For times_a_day: given at the ward’s standard times',
    }),
    every_hours: integer({ minimum: 1, maximum: MAX_EVERY_HOURS, description: 'For every_hours: elapsed hours' }),
    at_times: array(time(), {
      minItems: 1,
      maxItems: MAX_AT_TIMES,
      description: "For at_times: wall-clock times in the clinic's zone",
    }),
    min_interval_hours: number({ minimum: 0, maximum: 48, description: 'For as_needed' }),
    max_per_day: integer({ minimum: 1, maximum: MAX_PER_DAY, description: 'For as_needed: in any 24 hours' }),
    duration_days: integer({ minimum: 1, maximum: MAX_DURATION_DAYS }),
    quantity: integer({ minimum: 1, maximum: MAX_QUANTITY, description: 'To dispense' }),
    instructions: text(MAX_INSTRUCTIONS, { min: 0 }),
    continue_on_discharge: boolean({ description: 'An inpatient order listed on the discharge summary' }),
    starts_at: text(40, { rule: 'line', description: 'An inpatient order’s first dose (date-time); now when absent' }),
    allergy_override_reason: text(MAX_OVERRIDE_REASON, {
      min: 0,
      description: 'Why the medicine is prescribed despite a recorded allergy; without it that is a 409',
    }),
  },
  {
    optional: [
      'appointment_id',
      'admission_id',
      'times_a_day',
      'every_hours',
      'at_times',
      'min_interval_hours',
      'max_per_day',
      'duration_days',
      'quantity',
      'instructions',
      'continue_on_discharge',
      'starts_at',
      'allergy_override_reason',
    ],
  },
);

export const DiscontinueRequestShape = object({ reason: text(1000) });

export const DoseRecordRequestShape = object(
  {
    outcome: oneOfValues(DOSE_OUTCOMES),
    dose: number({ minimum: 0, maximum: MAX_DOSE_AMOUNT, description: 'For given: the amount given' }),
    dose_unit: text(64, { rule: 'line', description: "For given: UCUM; the order's unit when absent" }),
    given_at: text(40, {
      rule: 'line',
      description: 'For given: when (date-time), not in the future; now when absent',
    }),
    reason: text(MAX_DOSE_REASON, { min: 0, description: 'Required for held, refused and missed' }),
  },
  { optional: ['dose', 'dose_unit', 'given_at', 'reason'] },
);

export const AsNeededDoseRequestShape = object(
  {
    dose: number({ minimum: 0, maximum: MAX_DOSE_AMOUNT }),
    dose_unit: text(64, { rule: 'line' }),
    given_at: text(40, { rule: 'line', description: 'When (date-time), not in the future; now when absent' }),
  },
  { optional: ['dose_unit', 'given_at'] },
);

export const PatientMedicinesQuery = queryOf({
  ...propertiesOf(PageQuery),
  status: oneOfValues(['active', 'all'] as const, 'active (the default): not discontinued nor past their end'),
});

// ── Answers ──────────────────────────────────────────────────────────────────────────────────────────────────────

export const FormularyEntryShape = component(
  'FormularyMedicine',
  object({
    id: id(),
    generic_name: string(),
    form: oneOfValues(DOSE_FORMS),
    strength: string(),
    routes: array(oneOfValues(ROUTE_NAMES)),
    dose_unit: string({ description: 'UCUM' }),
    price: nullable(string({ description: 'Dollars' })),
    price_cents: nullable(integer({ minimum: 0 })),
    active: boolean(),
    label: string({ description: '"Amoxicillin 500 mg capsule"' }),
  }),
);
export type FormularyEntryJson = Static<typeof FormularyEntryShape>;

export const FormularyImportShape = object({ created: integer({ minimum: 0 }), updated: integer({ minimum: 0 }) });

export const AllergyShape = component(
  'Allergy',
  object({
    id: id(),
    patient_id: id(),
    kind: oneOfValues(['medicine', 'text', 'none_known'] as const),
    substance: string({ description: 'What the patient reacts to; "No known allergies" for that statement' }),
    medicine_id: nullable(id()),
    type: oneOfValues(ALLERGY_TYPES),
    reaction: nullable(string()),
    severity: nullable(oneOfValues(ALLERGY_SEVERITIES)),
    status: oneOfValues(ALLERGY_STATUSES),
    recorded_by: string(),
    recorded_at: dateTime(),
    words: string({ description: '"Penicillin (severe: anaphylaxis)"' }),
  }),
);
export type AllergyJson = Static<typeof AllergyShape>;

export const AllergiesShape = component(
  'PatientAllergies',
  object({
    patient_id: id(),
    statement: oneOfValues(['not_asked', 'none_known', 'allergies'] as const, 'What the banner shows'),
    summary: string({ description: '"Allergies not recorded", "No known allergies" or the active allergies' }),
    allergies: array(ref(AllergyShape), { description: 'Every allergy recorded, newest first' }),
  }),
);
export type AllergiesJson = Static<typeof AllergiesShape>;

const frequencyShape = object({
  kind: oneOfValues(FREQUENCY_KINDS),
  times_a_day: nullable(integer({ minimum: 1 })),
  every_hours: nullable(integer({ minimum: 1 })),
  at_times: nullable(array(string())),
  min_interval_hours: nullable(number()),
  max_per_day: nullable(integer({ minimum: 1 })),
  words: string({ description: '"every 8 hours"' }),
});

export const DoseShape = component(
  'MedicationDose',
  object({
    id: id(),
    order_id: id(),
    due_at: nullable(dateTime('null for a dose given as needed')),
    status: oneOfValues(DOSE_STATUSES),
    late: boolean({ description: 'Still due more than 60 minutes after its time' }),
    given_at: nullable(dateTime()),
    dose: nullable(number()),
    dose_unit: nullable(string()),
    reason: nullable(string()),
    recorded_by: nullable(string()),
    recorded_at: nullable(dateTime()),
  }),
);
export type DoseJson = Static<typeof DoseShape>;

export const MedicationOrderShape = component(
  'MedicationOrder',
  object({
    id: id(),
    setting: oneOfValues(['outpatient', 'inpatient'] as const, 'A prescription at a visit, or an order on the ward'),
    patient: ref(NamedShape),
    doctor: ref(NamedShape),
    appointment_id: nullable(id()),
    admission_id: nullable(id()),
    medicine: ref(FormularyEntryShape),
    dose: number(),
    dose_unit: string(),
    route: oneOfValues(ROUTE_NAMES),
    frequency: frequencyShape,
    duration_days: nullable(integer({ minimum: 1 })),
    quantity: nullable(integer({ minimum: 1 })),
    instructions: string(),
    continue_on_discharge: boolean(),
    allergy_override: nullable(
      object({
        reason: string(),
        allergies: array(string(), { description: 'The allergies overridden' }),
      }),
    ),
    status: oneOfValues(ORDER_STATUSES),
    start_date: date(),
    starts_at: dateTime(),
    ends_at: nullable(dateTime()),
    requested_at: dateTime(),
    discontinued_at: nullable(dateTime()),
    discontinued_reason: nullable(string()),
    words: string({ description: 'The line a prescription prints' }),
  }),
);
export type MedicationOrderJson = Static<typeof MedicationOrderShape>;

export const OrderWithDosesShape = component(
  'MedicationOrderWithDoses',
  object({ order: ref(MedicationOrderShape), doses: array(ref(DoseShape)) }),
);
export type OrderWithDosesJson = Static<typeof OrderWithDosesShape>;

export const PrintoutShape = component(
  'PrescriptionPrintout',
  object({
    clinic: object({ name: string(), address: string(), phone: string() }),
    order: ref(MedicationOrderShape),
    patient_birth_date: nullable(date()),
    date: date("The prescription's date in the clinic's zone"),
  }),
);
export type PrintoutJson = Static<typeof PrintoutShape>;

export const DiscontinuedShape = object({
  order: ref(MedicationOrderShape),
  cancelled_doses: integer({ minimum: 0 }),
});

export const WardMarShape = component(
  'WardMar',
  object({
    ward: ref(NamedShape),
    from: dateTime(),
    to: dateTime(),
    late_doses: integer({ minimum: 0 }),
    patients: array(
      object({
        admission_id: id(),
        patient: ref(NamedShape),
        bed: string(),
        late_doses: integer({ minimum: 0 }),
        orders: array(object({ order: ref(MedicationOrderShape), doses: array(ref(DoseShape)) })),
      }),
    ),
  }),
);
export type WardMarJson = Static<typeof WardMarShape>;

export const MarQuery = queryOf({ date: date("The clinic's day shown; today when absent") });
