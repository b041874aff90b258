import { DESK_ROLES } from '../../../domain/shared/actor.ts';
import type { ModulePaths } from '../module-paths.ts';
import { PatientDetailShape } from '../../../domain/records/records-shapes.ts';
import { WalkInRequest, WalkInShape } from '../../../domain/auth/auth-shapes.ts';
import {
  DeskPatientAnswer,
  DeskPatientShape,
  DuplicatesQuery,
  MyProfileShape,
  MyRecordsShape,
  OwnProfileRequest,
  PatientProfileAnswer,
  PatientProfileShape,
  PatientRowShape,
  PatientVisitShape,
  PossibleDuplicatesShape,
  StaffEditRequest,
} from '../../../domain/patients/patients-shapes.ts';
import { pageQuery } from '../components.ts';
import { listOf, ref } from '../../../domain/shared/wire-schema.ts';

const staffEditDescription =
  "Corrects a patient's contact details by the patient's own rules; a field left out keeps its value (a patient registered " +
  'without an e-mail may stay without one). A new e-mail does not replace the sign-in address: it waits as `pending_email` until ' +
  'the patient confirms it from that address (`/api/email-verification`), and the address in use is told. An e-mail another ' +
  'account uses or waits for is 409 `email_taken` naming `email`. Audited (`update`, `email_change_requested`).';

/** The operations of src/http/routes/patients.ts. */
export const patientsPaths: ModulePaths = {
  tag: 'Patients',
  description:
    "Patients as the front desk and admins see them (lists, a walk-in's registration, contact details; the desk never sees " +
    "clinical content), the admin's patient detail with medical records, and a signed-in patient's own profile and recorded " +
    'visits. Every read of a patient list, card or records is audited.',
  schemas: {
    Patient: PatientRowShape,
    PatientProfile: PatientProfileShape,
    MyProfile: MyProfileShape,
    DeskPatient: DeskPatientShape,
    PatientVisit: PatientVisitShape,
  },
  operations: {
    'GET /api/admin/patients': {
      summary: 'List patients (admin)',
      description: 'Every patient, by id; `q` searches name, e-mail and phone. Each page read is audited.',
      access: 'admin',
      query: pageQuery,
      answers: { 200: listOf('patients', ref(PatientRowShape)) },
    },
    'GET /api/patients': {
      summary: 'List patients (front desk)',
      description: "As the admin's list, for reception and admins. Each page read is audited.",
      access: [...DESK_ROLES],
      query: pageQuery,
      answers: { 200: listOf('patients', ref(PatientRowShape)) },
    },
    'GET /api/patients/duplicates': {
      summary: 'Patients a walk-in may already be',
      description:
        'Reception and admins, before registering a walk-in; audited. Up to 10 patients with the same `name` (letter case and spacing aside) and ' +
        '`birthdate`, or the same `phone` digits, each saying which matched; only what tells people apart, nothing clinical. Neither a phone of ' +
        'at least 6 digits nor a name with a birthdate → 422 naming `phone`.',
      access: [...DESK_ROLES],
      query: DuplicatesQuery,
      answers: { 200: PossibleDuplicatesShape },
    },
    'POST /api/patients': {
      summary: 'Register a walk-in patient',
      description:
        'The front desk registers a patient in person. The e-mail is optional: without one the patient has no sign-in and gets no ' +
        "e-mail. One given waits as `pending_email` (the answer's `email` is null) until the patient follows the link sent to it; " +
        'then it is their sign-in and they choose a password through "Forgot password". An e-mail already in use is 409 ' +
        '`email_taken`. Audited.',
      access: [...DESK_ROLES],
      body: WalkInRequest,
      answers: { 201: WalkInShape },
      errors: [409],
    },
    'GET /api/patients/{id}': {
      summary: "A patient's card (front desk)",
      description:
        'Contact details, no-shows and any address waiting for confirmation; never medical records. Audited.',
      access: [...DESK_ROLES],
      answers: { 200: DeskPatientAnswer },
    },
    'PUT /api/patients/{id}': {
      summary: "Correct a patient's details (front desk)",
      description: staffEditDescription,
      access: [...DESK_ROLES],
      body: StaffEditRequest,
      answers: { 200: PatientProfileAnswer },
      errors: [409],
    },
    'GET /api/admin/patients/{id}': {
      summary: 'A patient with their medical records (admin)',
      description: 'The patient detail with every medical record, newest first. The read is audited (`read_records`).',
      access: 'admin',
      answers: { 200: ref(PatientDetailShape) },
    },
    'PUT /api/admin/patients/{id}': {
      summary: "Correct a patient's details (admin)",
      description: staffEditDescription,
      access: 'admin',
      body: StaffEditRequest,
      answers: { 200: PatientProfileAnswer },
      errors: [409],
    },
    'GET /api/patient/profile': {
      summary: 'My profile',
      description: "The signed-in patient's account and patient details.",
      access: 'patient',
      answers: { 200: ref(MyProfileShape) },
    },
    'GET /api/patient/records': {
      summary: 'My recorded visits',
      description:
        "The signed-in patient's own recorded visits with their bills, newest first. The read is audited (`read_records`).",
      access: 'patient',
      answers: { 200: MyRecordsShape },
    },
    'PUT /api/patient/profile': {
      summary: 'Update my profile',
      description:
        'The same rules as signing up; every field but `reminders` is required. A new e-mail needs `current_password` (wrong or ' +
        'missing → 422 naming it; 429 after too many) and becomes the sign-in address at once, unverified until its link is followed. ' +
        'An e-mail another account uses is 409 `email_taken` naming `email`.',
      access: 'patient',
      body: OwnProfileRequest,
      answers: { 200: ref(MyProfileShape) },
      errors: [409, 429],
    },
  },
};
