import { BillingShape } from '../billing/billing-shapes.ts';
import { AppointmentShape } from '../scheduling/scheduling-shapes.ts';
import { MAX_AMOUNT_CENTS } from '../shared/money.ts';
import { GenderShape, ImageShape, MoneyShape, NamedShape, PersonShape } from '../shared/shared-shapes.ts';
import {
  amount,
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
  ref,
  string,
  text,
  type Static,
} from '../shared/wire-schema.ts';

// Medical records' requests and answers, written once (docs/architecture.md "The wire contract").

export const MAX_CLINICAL_TEXT = 5000;
export const MAX_SERVICE_TYPE = 200;
export const MAX_AMENDMENT_REASON = 1000;

/** The clinical content a visit's record and an amendment both carry, read by the same rules. */
const clinicalContent = {
  disease_id: id(),
  diagnosis: text(MAX_CLINICAL_TEXT),
  lab_tests: text(MAX_CLINICAL_TEXT, { min: 0 }),
  prescriptions: text(MAX_CLINICAL_TEXT, { min: 0 }),
};

// Requests

export const RecordVisitShape = object(
  {
    ...clinicalContent,
    service_type: text(MAX_SERVICE_TYPE),
    cost: amount(MAX_AMOUNT_CENTS, {
      zero: true,
      description: `Dollars with at most 2 decimals, at most ${MAX_AMOUNT_CENTS / 100}; none or 0 is a free visit (no bill)`,
    }),
    record_date: date('Default today; not in the future, not before the visit'),
  },
  { optional: ['lab_tests', 'prescriptions', 'cost', 'record_date'] },
);

/**
 * An amendment: the clinical content as it should now read, why, and the version it amends (`version` here, or the
 * record's ETag in If-Match). Service type, cost and record date are billed and refused (a rule beside the shape).
 */
export const AmendRecordShape = object(
  {
    ...clinicalContent,
    reason: text(MAX_AMENDMENT_REASON),
    version: id("The version amended (the record's `version`); or send its ETag in If-Match"),
  },
  { optional: ['lab_tests', 'prescriptions', 'version'] },
);

export const IfMatchHeader = { 'If-Match': string({ description: 'The ETag of the version amended, e.g. "3"' }) };

// Answers

export const RecordVersionShape = component(
  'RecordVersion',
  object({
    version: integer({ minimum: 1 }),
    disease: nullable(ref(NamedShape)),
    diagnosis: string(),
    lab_tests: string(),
    prescriptions: string(),
    written_by: ref(NamedShape),
    written_at: dateTime(),
    reason: nullable(string({ description: 'Why it was amended; null for the version first recorded' })),
  }),
);

/** Whether a record was amended, and every version of it, oldest first: what every reader of a record shows. */
export const recordHistory = {
  amended: boolean(),
  history: array(ref(RecordVersionShape), { minItems: 1 }),
};
const RecordHistoryShape = object(recordHistory);
export type RecordHistoryJson = Static<typeof RecordHistoryShape>;

export const MedicalRecordShape = component(
  'MedicalRecord',
  object({
    id: id(),
    appointment_id: id(),
    disease: nullable(ref(NamedShape)),
    diagnosis: string(),
    lab_tests: string(),
    prescriptions: string(),
    service_type: string(),
    cost: ref(MoneyShape),
    cost_cents: integer({ minimum: 0, maximum: MAX_AMOUNT_CENTS }),
    record_date: date(),
    doctor: ref(NamedShape),
    version: integer({
      minimum: 1,
      description:
        "The current version (the last of `history`): an amendment names it, and the record's ETag is it, quoted",
    }),
    ...recordHistory,
  }),
);
export type MedicalRecordJson = Static<typeof MedicalRecordShape>;

/** What recording a visit answers: the record, the appointment it completed, and the bill it raised (none if free). */
export const RecordedVisitShape = object({
  medical_record: ref(MedicalRecordShape),
  appointment: ref(AppointmentShape),
  billing: nullable(ref(BillingShape)),
});
export type RecordedVisitJson = Static<typeof RecordedVisitShape>;

/** A row of the doctor's patients. */
export const PatientCardShape = object({
  id: id(),
  name: string(),
  phone: string(),
  email: nullable(email()),
  photo: ref(ImageShape),
});
export type PatientCardJson = Static<typeof PatientCardShape>;

/** docs/api.md "patient detail": a patient with every medical record, newest first (admin and doctor). */
export const PatientDetailShape = component(
  'PatientDetail',
  object({
    id: integer(),
    user: ref(PersonShape),
    name: string(),
    email: nullable(email()),
    phone: string(),
    birthdate: nullable(date()),
    gender: nullable(ref(GenderShape)),
    photo: ref(ImageShape),
    description: string(),
    medical_records: array(ref(MedicalRecordShape)),
  }),
);
export type PatientDetailJson = Static<typeof PatientDetailShape>;
