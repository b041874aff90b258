import { patientFields } from '../auth/auth-shapes.ts';
import { MAX_SIGN_IN_PASSWORD_LENGTH } from '../auth/passwords.ts';
import { PAYMENT_STATUSES } from '../billing/billing.ts';
import { RecordVersionShape } from '../records/records-shapes.ts';
import { GenderShape, ImageShape, MoneyShape, NamedShape, UserShape } from '../shared/shared-shapes.ts';
import {
  array,
  boolean,
  component,
  date,
  email,
  integer,
  nullable,
  object,
  oneOfValues,
  queryOf,
  ref,
  string,
  text,
  time,
  type Schema,
  type Static,
} from '../shared/wire-schema.ts';

// Patients' requests and answers, written once (docs/architecture.md "The wire contract").

// Requests

/** A patient's details as a profile holds them after an edit: every one required. */
export const PatientFieldsShape = object(patientFields);

/** The same for a patient the desk registered without an e-mail, who may stay without one. */
export const PatientFieldsWithoutEmailShape = object(
  { ...patientFields, email: nullable(patientFields.email) },
  { optional: ['email'] },
);

/** The desk's or an admin's correction: a field left out keeps its value. */
export const StaffEditRequest = object(
  { ...patientFields, email: nullable(patientFields.email) },
  { optional: ['name', 'email', 'phone', 'birthdate', 'gender'] },
);

export const OwnProfileRequest = object(
  {
    ...patientFields,
    reminders: boolean({ description: 'E-mail reminders before visits; absent keeps the current choice' }),
    current_password: text(MAX_SIGN_IN_PASSWORD_LENGTH, {
      rule: 'untrimmed',
      description: 'Exactly as typed; required when `email` changes',
    }),
  },
  { optional: ['reminders', 'current_password'] },
);

export const DuplicatesQuery = queryOf({
  name: patientFields.name,
  birthdate: date(),
  phone: text(40, { min: 0 }),
});

// Answers

/** docs/api.md "patient row": the admin's and the desk's patient lists. */
const patientRow = {
  id: integer(),
  name: string(),
  email: nullable(email()),
  phone: string(),
  gender: nullable(ref(GenderShape)),
  birthdate: nullable(date()),
  no_shows: integer({ minimum: 0, description: 'Visits the patient did not come to' }),
};

export const PatientRowShape = component('Patient', object(patientRow));
export type PatientRow = Static<typeof PatientRowShape>;

/** A patient's card at the desk: the row, and an address staff entered that waits for the patient's confirmation. */
export const DeskPatientShape = component('DeskPatient', object({ ...patientRow, pending_email: nullable(email()) }));
export type DeskPatientJson = Static<typeof DeskPatientShape>;

export const DeskPatientAnswer = object({ patient: ref(DeskPatientShape) });

/** A patient's profile; `email` as given (none for a walk-in without one). */
const patientProfile = <E extends Schema>(emailSchema: E) =>
  object({
    id: integer(),
    name: string(),
    email: emailSchema,
    phone: string(),
    birthdate: nullable(date()),
    gender: nullable(ref(GenderShape)),
    photo: ref(ImageShape),
    description: string(),
    reminders: boolean({ description: "E-mail reminders before visits (the patient's own choice)" }),
    email_verified: boolean(),
    pending_email: nullable(email({ description: "An address staff entered, waiting for the patient's confirmation" })),
  });

export const PatientProfileShape = component('PatientProfile', patientProfile(nullable(email())));
export type PatientJson = Static<typeof PatientProfileShape>;

export const PatientProfileAnswer = object({ patient: ref(PatientProfileShape) });

export const MyProfileShape = component(
  'MyProfile',
  object({ user: ref(UserShape), patient: patientProfile(email()) }),
);
export type MyProfileJson = Static<typeof MyProfileShape>;

export const PatientVisitShape = component(
  'PatientVisit',
  object({
    id: integer({ description: 'The medical record' }),
    date: date(),
    start_time: time(),
    doctor: ref(NamedShape),
    disease: nullable(ref(NamedShape)),
    diagnosis: string(),
    prescriptions: string(),
    lab_tests: string(),
    service_type: string(),
    amended: boolean(),
    history: array(ref(RecordVersionShape)),
    bill: nullable(
      object({
        id: integer(),
        amount: ref(MoneyShape),
        amount_cents: integer({ minimum: 0 }),
        payment_status: oneOfValues(PAYMENT_STATUSES),
      }),
    ),
  }),
);
export type PatientVisitJson = Static<typeof PatientVisitShape>;

export const MyRecordsShape = object({ records: array(ref(PatientVisitShape)) });

export const PossibleDuplicatesShape = object({
  patients: array(
    object({
      id: integer(),
      name: string(),
      phone: string(),
      birthdate: nullable(date()),
      matched_on: array(oneOfValues(['name_and_birthdate', 'phone'] as const), { minItems: 1 }),
    }),
    { description: 'Only what tells people apart at the desk: never anything clinical' },
  ),
});
export type PossibleDuplicatesJson = Static<typeof PossibleDuplicatesShape>;
export type PossibleDuplicate = PossibleDuplicatesJson['patients'][number];
