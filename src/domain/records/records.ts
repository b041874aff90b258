import type { Gender } from '../shared/actor.ts';
import { fileUrl } from '../shared/files.ts';
import { MAX_AMOUNT_CENTS, centsToDecimal, parseCents } from '../shared/money.ts';
import { Validator, asRecord } from '../shared/validate.ts';

export const MAX_CLINICAL_TEXT = 5000;
export const MAX_SERVICE_TYPE = 200;

export interface Named {
  id: number;
  name: string;
}

export interface MedicalRecord {
  id: number;
  appointmentId: number;
  patientId: number;
  disease: Named | null;
  diagnosis: string;
  labTests: string;
  prescriptions: string;
  serviceType: string;
  costCents: number;
  recordDate: string;
  doctor: Named;
}

/** What a doctor writes down about one visit. */
export interface Visit {
  diseaseId: number;
  diagnosis: string;
  labTests: string;
  prescriptions: string;
  serviceType: string;
  costCents: number;
  recordDate: string;
}

export type NewMedicalRecord = Visit & { appointmentId: number; patientId: number; doctorId: number };

export interface PatientCard {
  id: number;
  name: string;
  /** None for a patient registered at the desk without one. */
  email: string | null;
  phone: string;
  photoId: number | null;
}

export interface PatientProfile extends PatientCard {
  userId: number;
  birthdate: string | null;
  gender: Gender | null;
  description: string;
}

/**
 * Reads a visit from the form: disease, diagnosis and service type are required; cost is a non-negative
 * amount with at most two decimals (none means a free visit); the record date defaults to `today` and
 * cannot be in the future. `diseaseKnown` says whether the chosen disease exists in the catalogue.
 */
export async function readVisit(body: unknown, today: string, diseaseKnown: (id: number) => Promise<boolean>): Promise<Visit> {
  const input = asRecord(body);
  const v = new Validator(input);
  const diseaseId = v.id('disease_id');
  const diagnosis = v.text('diagnosis', { max: MAX_CLINICAL_TEXT });
  const labTests = v.text('lab_tests', { optional: true, max: MAX_CLINICAL_TEXT });
  const prescriptions = v.text('prescriptions', { optional: true, max: MAX_CLINICAL_TEXT });
  const serviceType = v.text('service_type', { max: MAX_SERVICE_TYPE });
  const costCents = readCost(v, input.cost);
  const recordDate = v.date('record_date', { optional: true }) ?? today;
  if (recordDate > today) v.fail('record_date', 'cannot be in the future');
  if (diseaseId !== undefined && !(await diseaseKnown(diseaseId))) v.fail('disease_id', 'does not exist');
  v.done();
  return { diseaseId, diagnosis, labTests, prescriptions, serviceType, costCents, recordDate };
}

function readCost(v: Validator, raw: unknown): number {
  if (raw === undefined || raw === null || raw === '') return 0;
  const cents = parseCents(raw);
  if (cents === undefined) {
    v.fail('cost', 'must be a non-negative amount with at most 2 decimals');
    return 0;
  }
  if (cents > MAX_AMOUNT_CENTS) v.fail('cost', `must be at most ${centsToDecimal(MAX_AMOUNT_CENTS)}`);
  return cents;
}

export function medicalRecordJson(r: MedicalRecord) {
  return {
    id: r.id,
    appointment_id: r.appointmentId,
    disease: r.disease,
    diagnosis: r.diagnosis,
    lab_tests: r.labTests,
    prescriptions: r.prescriptions,
    service_type: r.serviceType,
    cost: centsToDecimal(r.costCents),
    cost_cents: r.costCents,
    record_date: r.recordDate,
    doctor: r.doctor,
  };
}
export type MedicalRecordJson = ReturnType<typeof medicalRecordJson>;

export function patientCardJson(p: PatientCard) {
  return { id: p.id, name: p.name, phone: p.phone, email: p.email, photo: fileUrl(p.photoId) };
}
export type PatientCardJson = ReturnType<typeof patientCardJson>;

/** The patient detail of docs/api.md: profile fields and every medical record, newest first. */
export function patientDetailJson(p: PatientProfile, records: MedicalRecord[]) {
  return {
    id: p.id,
    user: { id: p.userId, name: p.name, email: p.email },
    name: p.name,
    email: p.email,
    phone: p.phone,
    birthdate: p.birthdate,
    gender: p.gender,
    photo: fileUrl(p.photoId),
    description: p.description,
    medical_records: records.map(medicalRecordJson),
  };
}
export type PatientDetailJson = ReturnType<typeof patientDetailJson>;
