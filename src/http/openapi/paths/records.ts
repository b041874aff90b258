import type { ModulePaths } from '../module-paths.ts';
import { MAX_AMENDMENT_REASON, MAX_CLINICAL_TEXT, MAX_SERVICE_TYPE } from '../../../domain/records/records.ts';
import { MAX_AMOUNT_CENTS } from '../../../domain/shared/money.ts';
import {
  anyOf,
  array,
  boolean,
  date,
  dateTime,
  email,
  id,
  integer,
  listOf,
  nullable,
  number,
  object,
  ref,
  string,
} from '../schema.ts';
import { pageQuery } from '../components.ts';

/** The operations of src/http/routes/records.ts. */
export const recordsPaths: ModulePaths = {
  tag: 'Records',
  description:
    'Medical records: a doctor records a visit of their own appointment once it has begun (409 `visit_not_started` before), which completes ' +
    "the appointment and raises its bill in one transaction, and reads the patients they have seen. Another doctor's appointment, or a patient who never saw " +
    'this doctor, is answered 404. The doctor who wrote a record, or an admin, amends its clinical content with a reason; every version is kept ' +
    '(`history`, oldest first, the current one last) and each amendment is audited. Every read of clinical content is audited. Reception never ' +
    'receives it.',
  schemas: {
    MedicalRecord: object({
      id: id(),
      appointment_id: id(),
      disease: nullable(ref('Named')),
      diagnosis: string(),
      lab_tests: string(),
      prescriptions: string(),
      service_type: string(),
      cost: ref('Money'),
      cost_cents: integer({ minimum: 0, maximum: MAX_AMOUNT_CENTS }),
      record_date: date(),
      doctor: ref('Named'),
      amended: boolean(),
      history: array(ref('RecordVersion'), { minItems: 1 }),
    }),
    RecordVersion: object({
      version: integer({ minimum: 1 }),
      disease: nullable(ref('Named')),
      diagnosis: string(),
      lab_tests: string(),
      prescriptions: string(),
      written_by: ref('Named'),
      written_at: dateTime(),
      reason: nullable(string({ description: 'Why it was amended; null for the version first recorded' })),
    }),
  },
  operations: {
    'POST /api/doctor/appointments/{id}/medical-record': {
      summary: 'Record a visit',
      description:
        "Doctors only, for their own appointment (another's → 404); audited. The record is written, the appointment completed and, unless the visit is free " +
        "(cost 0), a bill raised and the patient e-mailed it. Not `scheduled` or `checked_in` → 409 `invalid_transition`; before the visit's start → 409 " +
        '`visit_not_started`; an unknown disease, or a record date in the future or before the visit → 422 naming the field.',
      access: 'doctor',
      body: object(
        {
          disease_id: id(),
          diagnosis: string({ minLength: 1, maxLength: MAX_CLINICAL_TEXT }),
          lab_tests: string({ maxLength: MAX_CLINICAL_TEXT }),
          prescriptions: string({ maxLength: MAX_CLINICAL_TEXT }),
          service_type: string({ minLength: 1, maxLength: MAX_SERVICE_TYPE }),
          cost: {
            ...anyOf(
              string({ pattern: '^[0-9]{1,9}(\\.[0-9]{1,2})?$' }),
              number({ minimum: 0, maximum: MAX_AMOUNT_CENTS / 100 }),
            ),
            description: `Dollars with at most 2 decimals, at most ${MAX_AMOUNT_CENTS / 100}; none or 0 is a free visit (no bill)`,
          },
          record_date: date('Default today; not in the future, not before the visit'),
        },
        { optional: ['lab_tests', 'prescriptions', 'cost', 'record_date'] },
      ),
      answers: {
        201: object({
          medical_record: ref('MedicalRecord'),
          appointment: ref('Appointment'),
          billing: nullable(ref('Billing')),
        }),
      },
      errors: [409],
    },
    'POST /api/medical-records/{id}/amendments': {
      summary: 'Amend a record',
      description:
        "The doctor who wrote the record (another's → 404) or an admin; audited (`amend`). The body is the clinical content as it should now read " +
        'and the reason; it becomes the current version, the earlier ones stay in `history`. Service type, cost and record date are billed and ' +
        'cannot be amended (422 naming the field): a bill changes only by an adjustment.',
      access: ['doctor', 'admin'],
      body: object(
        {
          disease_id: id(),
          diagnosis: string({ minLength: 1, maxLength: MAX_CLINICAL_TEXT }),
          lab_tests: string({ maxLength: MAX_CLINICAL_TEXT }),
          prescriptions: string({ maxLength: MAX_CLINICAL_TEXT }),
          reason: string({ minLength: 1, maxLength: MAX_AMENDMENT_REASON }),
        },
        { optional: ['lab_tests', 'prescriptions'] },
      ),
      answers: { 201: ref('MedicalRecord') },
    },
    'GET /api/doctor/patients': {
      summary: "The doctor's patients",
      description:
        'Doctors only; audited. Everyone who has had an appointment with them; `q` searches name, e-mail and phone.',
      access: 'doctor',
      query: pageQuery,
      answers: {
        200: listOf(
          'patients',
          object({ id: id(), name: string(), phone: string(), email: nullable(email()), photo: ref('Image') }),
        ),
      },
    },
    'GET /api/doctor/patients/{id}': {
      summary: 'One of my patients, with their records',
      description: 'Doctors only; audited (`read_records`). A patient who never saw this doctor → 404.',
      access: 'doctor',
      answers: { 200: ref('PatientDetail') },
    },
  },
};
